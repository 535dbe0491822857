// antd's Segmented, as the chunk DeferredSegmented loads
export { Segmented } from 'antd';
