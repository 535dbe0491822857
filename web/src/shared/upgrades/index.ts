export { UpgradeButton } from './UpgradeButton';
export { UpgradeDialog } from './UpgradeDialog';
export { useUpgradeSelection } from './useUpgradeSelection';
