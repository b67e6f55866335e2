import { createContext, useContext } from 'react';
import type { Api } from '../lib/api';
import type { ModelDefinition, Project, User } from '../lib/types';

export interface AppContextValue {
  api: Api;
  user: User;
  projects: Project[];
  /** The project the pages act on (the switcher in the header). */
  project: Project | undefined;
  selectProject: (id: number) => void;
  reloadProjects: () => Promise<Project[]>;
  /** The current project's registry (routing tiers, replay models, fallbacks pick from it). */
  models: ModelDefinition[];
  reloadModels: () => void;
  isAdmin: boolean;
  logout: () => Promise<void>;
}

export const AppContext = createContext<AppContextValue | undefined>(undefined);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside the signed-in console');
  return value;
}
