// antd's Input.Search, as the chunk DeferredSearch loads
import { Input } from 'antd';

export const Search = Input.Search;
