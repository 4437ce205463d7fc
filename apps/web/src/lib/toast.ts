import './antd-mobile-react19';
import { Toast } from 'antd-mobile';
import { NOTICE_DURATION_MS } from './notice-config';

// Spec §9: notifications stay 3000 ms.
Toast.config({ duration: NOTICE_DURATION_MS });

export { Toast };
