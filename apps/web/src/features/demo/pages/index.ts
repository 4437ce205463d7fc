import type { ComponentType } from 'react';
import Charts from './charts';
import Counter from './counter';
import CounterIndex1 from './counter-index1';
import Keepalive from './keepalive';
import Mock from './mock';
import ScrollCache from './scroll-cache';
import Unocss from './unocss';

/*
 * Every demo page in one chunk, by path: the route table then carries one lazy import built
 * from route-meta's list instead of seven, so the first screen stays as light as it was
 * (docs/product.md §10.4).
 */
export const demoPages: Record<string, ComponentType> = {
  '/charts': Charts,
  '/counter': Counter,
  '/counter/index1': CounterIndex1,
  '/keepalive': Keepalive,
  '/mock': Mock,
  '/scroll-cache': ScrollCache,
  '/unocss': Unocss,
};
