import {
  BankOutlined,
  ClusterOutlined,
  HistoryOutlined,
  HomeOutlined,
  ProfileOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { PreferencesPage } from '@/features/account';
import { DebugLogPage, DebugToolboxPage } from '@/features/debug';
import { FirmwareRedirect, GatewayFirmwarePage, InverterFirmwarePage } from '@/features/firmware';
import { GatewayDetailPage, GatewayListPage } from '@/features/gateways';
import { BatteryDetailPage, BatteryListPage } from '@/features/batteries';
import { MeterDetailPage, MeterListPage } from '@/features/meters';
import { CombinerDetailPage, CombinerListPage } from '@/features/combiner';
import { ManualsPage } from '@/features/manuals';
import { DeviceRedirect, InverterDetailPage, InverterListPage } from '@/features/inverters';
import { PlantOverviewPage } from '@/features/overview';
import { PlantEditPage, PlantListPage, PlantWizardPage } from '@/features/plants';
import { SettingsPage } from '@/features/settings';
import { AuditLogPage } from '@/features/audit';
import { CommLogPage, LogRedirect } from '@/features/commLog';
import { NotificationsPage } from '@/features/notifications';
import { SharesPage } from '@/features/shares';
import {
  AgentsPage,
  CompanyInfoPage,
  EnterpriseRedirect,
  RolesPage,
  StaffPage,
} from '@/features/company';
import { CompaniesPage } from '@/features/companies';
import { ProductsPage } from '@/features/products';
import { ProtocolEditorPage, ProtocolsPage } from '@/features/protocols';
import { ManagementRedirect, SystemGatewaysPage } from '@/features/management';
import { CustomerListPage, CustomerRedirect, CustomerTypesPage } from '@/features/customers';
import { SystemUpdatePage } from '@/features/system';
import { WeatherDetailPage, WeatherListPage } from '@/features/weather';
import { ReportPage, WorkdataListPage, WorkdataRedirect } from '@/features/workdata';
import { EnergyHubRedirect, EnrollmentPlanPage, EnergyHubEventPage } from '@/features/energyHub';
import { FileTextOutlined } from '@ant-design/icons';
import { CloudUploadOutlined, ControlOutlined, TeamOutlined } from '@ant-design/icons';
import { DeploymentUnitOutlined } from '@ant-design/icons';
import type { MenuGroup, RouteEntry } from './menu';

import { AlarmRulesPage, AlarmsPage, EventListPage } from './pages/lazy';
import { RootPage } from './pages/Root';

/**
 * Menu groups (parent routes, docs/overview.md). A group shows once a screen of it exists and
 * the permission tree allows it; features add their groups here with their first screen.
 */
export const MENU_GROUPS: readonly MenuGroup[] = [
  {
    key: '/device',
    labelKey: 'inverters.menuGroup',
    icon: <ClusterOutlined />,
    permission: 'equip.view',
  },
  {
    key: '/enterprise',
    labelKey: 'company.menuGroup',
    icon: <BankOutlined />,
    permission: 'company.management',
  },
  {
    key: '/log',
    labelKey: 'debug.menuGroup',
    icon: <ProfileOutlined />,
    permission: 'logger.management',
  },
  {
    key: '/energyHub',
    labelKey: 'energyHub.menuGroup',
    icon: <DeploymentUnitOutlined />,
    permission: 'application.center',
  },
  {
    key: '/customer',
    labelKey: 'customers.menuGroup',
    icon: <TeamOutlined />,
    permission: 'user.producer',
  },
  {
    key: '/firmware',
    labelKey: 'firmware.menuGroup',
    icon: <CloudUploadOutlined />,
    permission: 'firmware.management',
  },
  {
    key: '/management',
    labelKey: 'companies.menuGroup',
    icon: <ControlOutlined />,
    permission: 'system.management',
  },
];

/**
 * The screens inside the main layout. Only screens that exist are listed: a feature adds its
 * entries (path, permission key, icon, label, element) and the menu follows the permissions.
 */
export const ROUTES: readonly RouteEntry[] = [
  { path: '/', labelKey: 'menu.home', icon: <HomeOutlined />, element: RootPage },
  {
    path: '/plants',
    permission: 'station.view',
    labelKey: 'menu.plants',
    icon: <ThunderboltOutlined />,
    element: PlantListPage,
    keepAlive: true,
  },
  {
    path: '/plant-add',
    permission: 'station.create',
    labelKey: 'menu.plantAdd',
    element: PlantWizardPage,
    hideInMenu: true,
  },
  {
    path: '/plants/overview/:id/:type',
    labelKey: 'overview.title',
    element: PlantOverviewPage,
    hideInMenu: true,
  },
  {
    path: '/plants/edit/:id',
    permission: 'station.view',
    labelKey: 'menu.plantEdit',
    element: PlantEditPage,
    hideInMenu: true,
  },
  {
    path: '/device',
    permission: 'equip.view',
    labelKey: 'inverters.menuGroup',
    element: DeviceRedirect,
    hideInMenu: true,
  },
  {
    path: '/device/gateway',
    permission: 'gateway.view',
    labelKey: 'gateways.menu',
    element: GatewayListPage,
    group: '/device',
    keepAlive: true,
  },
  {
    path: '/device/gateway/:id',
    permission: 'gateway.view',
    labelKey: 'gateways.detailMenu',
    element: GatewayDetailPage,
    hideInMenu: true,
  },
  {
    path: '/device/inverter',
    permission: 'inverter.view',
    labelKey: 'inverters.menu',
    element: InverterListPage,
    group: '/device',
    keepAlive: true,
  },
  {
    path: '/device/inverter/:sn',
    permission: 'inverter.view',
    labelKey: 'inverters.detailMenu',
    element: InverterDetailPage,
    hideInMenu: true,
  },
  { path: '/edit', labelKey: 'menu.preferences', element: PreferencesPage, hideInMenu: true },
  { path: '/shares', labelKey: 'consent.menu', element: SharesPage, hideInMenu: true },
  {
    path: '/notification',
    labelKey: 'notifications.title',
    element: NotificationsPage,
    hideInMenu: true,
  },
  {
    path: '/systemupdate',
    labelKey: 'menu.systemUpdate',
    icon: <HistoryOutlined />,
    element: SystemUpdatePage,
    hideInMenu: true,
  },
  {
    path: '/device/battery',
    permission: 'battery.list.view',
    labelKey: 'batteries.menu',
    element: BatteryListPage,
    group: '/device',
  },
  {
    path: '/device/battery/:sn',
    permission: 'battery.list.view',
    labelKey: 'batteries.detailMenu',
    element: BatteryDetailPage,
    hideInMenu: true,
    group: '/device',
  },
  {
    path: '/device/meter',
    permission: 'equip.view',
    labelKey: 'meters.menu',
    element: MeterListPage,
    group: '/device',
  },
  {
    path: '/device/meter/:sn',
    permission: 'equip.view',
    labelKey: 'meters.detailMenu',
    element: MeterDetailPage,
    hideInMenu: true,
    group: '/device',
  },
  {
    path: '/device/combiner',
    permission: 'equip.view',
    labelKey: 'combiner.menu',
    element: CombinerListPage,
    group: '/device',
  },
  {
    path: '/device/combiner/:sn',
    permission: 'equip.view',
    labelKey: 'combiner.detailMenu',
    element: CombinerDetailPage,
    hideInMenu: true,
    group: '/device',
  },
  {
    path: '/device/manuals',
    permission: 'manual.view',
    labelKey: 'manuals.menu',
    element: ManualsPage,
    group: '/device',
  },
  {
    path: '/device/weather',
    permission: 'equip.view',
    labelKey: 'weather.menu',
    element: WeatherListPage,
    group: '/device',
  },
  {
    path: '/device/weather/:sn',
    permission: 'equip.view',
    labelKey: 'weather.detailMenu',
    element: WeatherDetailPage,
    hideInMenu: true,
    group: '/device',
  },
  {
    path: '/device/event',
    permission: 'event.view',
    labelKey: 'events.menu',
    element: EventListPage,
    group: '/device',
    keepAlive: true,
  },
  {
    path: '/alarms',
    permission: 'event.view',
    labelKey: 'alarms.menu',
    element: AlarmsPage,
    group: '/device',
    keepAlive: true,
  },
  {
    // Not a menu item (docs/overview.md): opened from an inverter's or a gateway's detail.
    path: '/debug',
    permission: 'inverter.view',
    labelKey: 'debug.menu',
    element: DebugToolboxPage,
    hideInMenu: true,
    group: '/device',
  },
  {
    path: '/device/setting',
    permission: 'inverter.view',
    labelKey: 'settings.title',
    element: SettingsPage,
    hideInMenu: true,
    group: '/device',
  },
  {
    path: '/plants/device/setting',
    permission: 'station.view',
    labelKey: 'settings.title',
    element: SettingsPage,
    hideInMenu: true,
  },
  {
    path: '/workdata',
    permission: 'workdata.view',
    labelKey: 'workdata.menu',
    element: WorkdataRedirect,
    hideInMenu: true,
  },
  {
    path: '/workdata/list',
    permission: 'workdata.view',
    labelKey: 'workdata.menu',
    icon: <FileTextOutlined />,
    element: WorkdataListPage,
  },
  {
    // Not a menu item: opened from the reports list (highlighted as it, app/menu.ts).
    path: '/workdata/info/:id',
    permission: 'workdata.view',
    labelKey: 'workdata.menu',
    element: ReportPage,
    hideInMenu: true,
  },
  {
    path: '/energyHub',
    permission: 'application.center',
    labelKey: 'energyHub.menuGroup',
    element: EnergyHubRedirect,
    hideInMenu: true,
  },
  {
    path: '/energyHub/enrollmentPlan',
    permission: 'energyhub.view',
    labelKey: 'energyHub.enrollMenu',
    element: EnrollmentPlanPage,
    group: '/energyHub',
  },
  {
    path: '/energyHub/event',
    permission: 'energyhub.view',
    labelKey: 'energyHub.eventMenu',
    element: EnergyHubEventPage,
    group: '/energyHub',
  },
  {
    path: '/customer',
    permission: 'user.producer',
    labelKey: 'customers.menuGroup',
    element: CustomerRedirect,
    hideInMenu: true,
  },
  {
    path: '/customer/list',
    permission: 'customer.list.view',
    labelKey: 'customers.menu',
    element: CustomerListPage,
    group: '/customer',
  },
  {
    path: '/customer/type',
    permission: 'customer.type.list.view',
    labelKey: 'customerTypes.menu',
    element: CustomerTypesPage,
    group: '/customer',
  },
  {
    path: '/enterprise',
    permission: 'company.management',
    labelKey: 'company.menuGroup',
    element: EnterpriseRedirect,
    hideInMenu: true,
  },
  {
    path: '/enterprise/company',
    permission: 'company.info',
    labelKey: 'company.info.menu',
    element: CompanyInfoPage,
    group: '/enterprise',
  },
  {
    path: '/enterprise/user',
    permission: 'company.user',
    labelKey: 'company.staff.menu',
    element: StaffPage,
    group: '/enterprise',
  },
  {
    path: '/enterprise/roles',
    permission: 'company.role.list.view',
    labelKey: 'company.roles.menu',
    element: RolesPage,
    group: '/enterprise',
  },
  {
    path: '/enterprise/alarmRules',
    permission: 'company.info',
    labelKey: 'alarms.rules.menu',
    element: AlarmRulesPage,
    group: '/enterprise',
  },
  {
    path: '/enterprise/agents',
    permission: 'company.agent',
    labelKey: 'agents.menu',
    element: AgentsPage,
    group: '/enterprise',
  },
  {
    path: '/firmware',
    permission: 'firmware.management',
    labelKey: 'firmware.menuGroup',
    element: FirmwareRedirect,
    hideInMenu: true,
  },
  {
    path: '/firmware/inv',
    permission: 'firmware.inverter.view',
    labelKey: 'firmware.inverterMenu',
    element: InverterFirmwarePage,
    group: '/firmware',
  },
  {
    path: '/firmware/gate',
    permission: 'firmware.gateway.view',
    labelKey: 'firmware.gatewayMenu',
    element: GatewayFirmwarePage,
    group: '/firmware',
  },
  {
    path: '/log',
    permission: 'logger.management',
    labelKey: 'debug.menuGroup',
    element: LogRedirect,
    hideInMenu: true,
  },
  {
    path: '/log/uphold',
    permission: 'logger.upgrade.record',
    labelKey: 'audit.menu',
    element: AuditLogPage,
    group: '/log',
  },
  {
    path: '/log/communication',
    permission: 'logger.communication',
    labelKey: 'commLog.menu',
    element: CommLogPage,
    group: '/log',
  },
  {
    path: '/log/debug',
    permission: 'logger.management',
    labelKey: 'debug.logMenu',
    element: DebugLogPage,
    group: '/log',
  },
  {
    path: '/management',
    permission: 'system.management',
    labelKey: 'companies.menuGroup',
    element: ManagementRedirect,
    hideInMenu: true,
  },
  {
    path: '/management/gateway',
    permission: 'sys.gateway.view',
    labelKey: 'sysGateways.menu',
    element: SystemGatewaysPage,
    group: '/management',
  },
  {
    path: '/management/company',
    permission: 'sys.company.view',
    labelKey: 'companies.menu',
    element: CompaniesPage,
    group: '/management',
  },
  {
    path: '/management/product',
    permission: 'sys.product.view',
    labelKey: 'products.menu',
    element: ProductsPage,
    group: '/management',
  },
  {
    path: '/management/protocol',
    permission: 'sys.protocol.view',
    labelKey: 'protocols.menu',
    element: ProtocolsPage,
    group: '/management',
  },
  {
    path: '/management/protocol/:code',
    permission: 'sys.protocol.view',
    labelKey: 'protocols.editMenu',
    element: ProtocolEditorPage,
    hideInMenu: true,
    group: '/management',
  },
];
