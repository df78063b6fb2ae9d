/** Demo data: `seedDemoData(db, tenants, { today })` seeds each tenant once and returns the demo logins. */
export { seedDemoData, type SeedOptions } from './seedDemoData';
export {
  buildDemoData,
  SHARED_DEMO_EMAIL,
  type DemoDataSet,
  type DemoLogin,
  type DemoTenant,
} from './demoData';
export type { DemoPublication } from './catalogue';
export { DEMO_PASSWORD, setDemoPasswords } from './demoPasswords';
