import { installAntdReact19Shim } from './antd-react-19';

// Dialog and Toast render themselves with antd-mobile's imperative renderer, which needs the React 19 shim.
installAntdReact19Shim();

export { Dialog, Toast } from 'antd-mobile';
