/**
 * A signed-in page's English texts in one file (decision 069): the features' (lib/i18n.ts) and
 * antd-mobile's (lib/antd-locale.ts), which such a page loads together; apart they were two
 * files, each a round trip on a slow link. (zh-CN's antd texts are antd's default, already in
 * the router's chunk.)
 */
export { default as features } from './features/en-US.json';
export { default as antd } from 'antd-mobile/es/locales/en-US';
