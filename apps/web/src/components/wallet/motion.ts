import { reduceMotion } from 'antd-mobile';

/**
 * The money screens honour the system's "reduce motion" setting: antd-mobile's popups,
 * keypad and pull-to-refresh then appear at once instead of sliding. Imported by the
 * components that bring those widgets, so the entry bundle does not carry react-spring.
 */
if (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches) reduceMotion();
