// antd's Select, as the chunk DeferredSelect loads
export { Select } from 'antd';
