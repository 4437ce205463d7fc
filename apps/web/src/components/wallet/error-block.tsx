import { ErrorBlock } from 'antd-mobile';

/** Loaded on demand by EmptyState: ErrorBlock's inline SVG illustrations are large. */
export default ErrorBlock;
