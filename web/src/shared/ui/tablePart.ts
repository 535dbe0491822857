// antd's Table, as the chunk DeferredTable loads
export { Table } from 'antd';
