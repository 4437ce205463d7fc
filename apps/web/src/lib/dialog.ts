import './antd-mobile-react19';

/** Use this Dialog for Dialog.confirm/alert/show: they render imperatively and need the React 19 shim. */
export { Dialog } from 'antd-mobile';
