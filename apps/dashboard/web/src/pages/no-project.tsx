import { PageHeader } from '../components/feedback';

export function NoProject({ title }: { title: string }) {
  return (
    <section aria-labelledby="page-title">
      <PageHeader title={title} />
      <p>
        No project is selected. <a href="#/projects">Create or choose a project</a> first.
      </p>
    </section>
  );
}
