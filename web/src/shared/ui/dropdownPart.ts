// antd's Dropdown (with its menu), as the chunk DeferredDropdown loads on first use
export { Dropdown } from 'antd';
