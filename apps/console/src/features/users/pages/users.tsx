import { Typography } from 'antd';

export default function Placeholder() {
  return <Typography.Title level={3}>…</Typography.Title>;
}
