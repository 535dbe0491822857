// antd's Tag, as the chunk DeferredTag loads
export { Tag } from 'antd';
