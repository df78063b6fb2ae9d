import { ROUTES } from '../../domain/routeRefs';
import { defineFeature } from '../types';

/** Sign-in (portal-core.md §2 "Login"): guest-only /login. */
export const loginFeature = defineFeature({
  id: 'login',
  routes: [{ ref: ROUTES.login, access: 'guest', screen: () => import('./LoginScreen') }],
});
