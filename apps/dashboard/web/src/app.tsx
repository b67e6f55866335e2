import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Loading } from './components/feedback';
import { createApi } from './lib/api';
import { href, matchRoute } from './lib/router';
import type { ModelDefinition, Project, User } from './lib/types';
import { AcceptInvitePage } from './pages/accept-invite.page';
import { AccountPage } from './pages/account.page';
import { AuditPage } from './pages/audit.page';
import { InsightsPage } from './pages/insights.page';
import { KeysPage } from './pages/keys.page';
import { LoginPage } from './pages/login.page';
import { MembersPage } from './pages/members.page';
import { ModelsPage } from './pages/models.page';
import { ProjectSettingsPage } from './pages/project-settings.page';
import { ProjectsPage } from './pages/projects.page';
import { StatsPage } from './pages/stats.page';
import { TracePage } from './pages/trace.page';
import { TracesPage } from './pages/traces.page';
import { AppContext, type AppContextValue } from './state/app-context';
import { navigate, useLocation } from './state/use-route';

const ROUTES = [
  { name: 'projects', pattern: '/projects' },
  { name: 'project', pattern: '/projects/:id' },
  { name: 'models', pattern: '/models' },
  { name: 'keys', pattern: '/keys' },
  { name: 'traces', pattern: '/traces' },
  { name: 'trace', pattern: '/traces/:id' },
  { name: 'stats', pattern: '/stats' },
  { name: 'insights', pattern: '/insights' },
  { name: 'audit', pattern: '/audit' },
  { name: 'members', pattern: '/members' },
  { name: 'account', pattern: '/account' },
  { name: 'accept', pattern: '/accept' },
  { name: 'login', pattern: '/login' },
] as const;

const NAV: { path: string; label: string; adminOnly?: boolean }[] = [
  { path: '/projects', label: 'Projects' },
  { path: '/models', label: 'Model registry' },
  { path: '/keys', label: 'API keys' },
  { path: '/traces', label: 'Traces' },
  { path: '/stats', label: 'Statistics' },
  { path: '/insights', label: 'Insights' },
  { path: '/members', label: 'Members', adminOnly: true },
  { path: '/audit', label: 'Audit events', adminOnly: true },
  { path: '/account', label: 'Account' },
];

const PROJECT_STORAGE = 'gateway-console.project';

function storedProjectId(): number | undefined {
  try {
    const value = Number(window.localStorage.getItem(PROJECT_STORAGE));
    return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

export function App() {
  const api = useMemo(() => createApi(), []);
  const location = useLocation();
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const [sessionNotice, setSessionNotice] = useState<string | undefined>(undefined);

  useEffect(() => {
    let cancelled = false;
    api.session().then(
      (session) => !cancelled && setUser(session.user),
      () => !cancelled && setUser(null),
    );
    const stop = api.http.onUnauthenticated((error) => {
      setSessionNotice(error.message === 'Unauthorized' ? 'Your session has ended. Log in again.' : `${error.message}. Log in again.`);
      setUser(null);
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [api]);

  const match = matchRoute(ROUTES, location.path);
  if (match?.name === 'accept') return <AcceptInvitePage api={api} token={location.query.token ?? ''} />;
  if (user === undefined) return <Loading label="Opening the console…" />;
  if (user === null)
    return (
      <LoginPage
        api={api}
        notice={sessionNotice}
        onLoggedIn={(loggedIn) => {
          setSessionNotice(undefined);
          setUser(loggedIn);
          if (!match || match.name === 'login') navigate('#/projects');
        }}
      />
    );
  return <Console api={api} user={user} onLoggedOut={() => setUser(null)} />;
}

function Console({ api, user, onLoggedOut }: { api: ReturnType<typeof createApi>; user: User; onLoggedOut: () => void }) {
  const location = useLocation();
  const [projects, setProjects] = useState<Project[] | undefined>(undefined);
  const [projectId, setProjectId] = useState<number | undefined>(storedProjectId);
  const [models, setModels] = useState<ModelDefinition[]>([]);
  const [modelsVersion, setModelsVersion] = useState(0);
  const mainRef = useRef<HTMLElement>(null);

  const reloadProjects = useCallback(async () => {
    const list = await api.projects();
    setProjects(list);
    return list;
  }, [api]);

  useEffect(() => {
    reloadProjects().catch(() => setProjects([]));
  }, [reloadProjects]);

  const project = projects?.find((p) => p.id === projectId) ?? projects?.find((p) => p.status === 'active') ?? projects?.[0];

  useEffect(() => {
    if (!project) {
      setModels([]);
      return;
    }
    let cancelled = false;
    api.models(project.id).then(
      (list) => !cancelled && setModels(list),
      () => !cancelled && setModels([]),
    );
    return () => {
      cancelled = true;
    };
  }, [api, project?.id, modelsVersion]);

  const selectProject = useCallback((id: number) => {
    setProjectId(id);
    try {
      window.localStorage.setItem(PROJECT_STORAGE, String(id));
    } catch {
      // private mode: the choice lasts for this page only
    }
  }, []);

  const match = matchRoute(ROUTES, location.path);
  const routeName = location.path === '/' ? 'projects' : match?.name;
  useEffect(() => {
    if (match?.name === 'login') navigate('#/projects');
  }, [match?.name]);

  // Moving between pages puts focus on the new page's title, so screen readers announce it.
  useEffect(() => {
    const title = mainRef.current?.querySelector<HTMLElement>('#page-title');
    title?.focus({ preventScroll: true });
  }, [location.path]);

  const value: AppContextValue = {
    api,
    user,
    projects: projects ?? [],
    project,
    selectProject,
    reloadProjects,
    models,
    reloadModels: () => setModelsVersion((v) => v + 1),
    isAdmin: user.role === 'owner' || user.role === 'admin',
    logout: async () => {
      try {
        await api.logout();
      } finally {
        onLoggedOut();
        navigate('#/login');
      }
    },
  };

  return (
    <AppContext.Provider value={value}>
      <a className="skip-link" href="#main" onClick={(event) => {
        event.preventDefault();
        mainRef.current?.focus();
      }}>
        Skip to content
      </a>
      <div className="shell">
        <header className="topbar">
          <a className="brand" href="#/projects">
            <span aria-hidden="true" className="brand-mark">
              G
            </span>
            Gateway console
          </a>
          <div className="project-switcher">
            <label htmlFor="project-switcher">Project</label>
            <select
              id="project-switcher"
              value={project?.id ?? ''}
              onChange={(event) => selectProject(Number(event.target.value))}
              disabled={!projects || projects.length === 0}
            >
              {!projects || projects.length === 0 ? <option value="">No project yet</option> : null}
              {(projects ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                  {p.status === 'archived' ? ' (archived)' : ''}
                </option>
              ))}
            </select>
          </div>
          <div className="user">
            <span>
              {user.email} <span className="muted">· {user.role}</span>
            </span>
            <button type="button" onClick={() => void value.logout()}>
              Log out
            </button>
          </div>
        </header>
        <nav className="sidebar" aria-label="Main">
          <ul>
            {NAV.filter((item) => !item.adminOnly || value.isAdmin).map((item) => {
              const current = location.path === item.path || location.path.startsWith(`${item.path}/`);
              return (
                <li key={item.path}>
                  <a href={href(item.path)} aria-current={current ? 'page' : undefined}>
                    {item.label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <main id="main" ref={mainRef} tabIndex={-1}>
          {projects === undefined ? <Loading /> : <Page name={routeName} params={match?.params ?? {}} query={location.query} />}
        </main>
      </div>
    </AppContext.Provider>
  );
}

function Page({ name, params, query }: { name: string | undefined; params: Record<string, string>; query: Record<string, string> }) {
  switch (name) {
    case 'projects':
    case 'login':
      return <ProjectsPage />;
    case 'project':
      return <ProjectSettingsPage projectId={Number(params.id)} />;
    case 'models':
      return <ModelsPage />;
    case 'keys':
      return <KeysPage />;
    case 'traces':
      return <TracesPage query={query} />;
    case 'trace':
      return <TracePage traceId={params.id} />;
    case 'stats':
      return <StatsPage query={query} />;
    case 'insights':
      return <InsightsPage />;
    case 'audit':
      return <AuditPage />;
    case 'members':
      return <MembersPage />;
    case 'account':
      return <AccountPage />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  return (
    <section>
      <h1 id="page-title" tabIndex={-1}>
        Page not found
      </h1>
      <p>
        <a href="#/projects">Go to the projects</a>
      </p>
    </section>
  );
}
