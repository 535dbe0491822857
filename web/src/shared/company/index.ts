export {
  askedCompany,
  isCompanyScreen,
  scopedPath,
  useScope,
  withCompany,
  type Scope,
} from './scope';
export { ScopeGate } from './ScopeGate';
