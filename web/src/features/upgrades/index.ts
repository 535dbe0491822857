export { UpgradeButton } from './UpgradeButton';
export { UpgradeDialog } from './UpgradeDialog';
