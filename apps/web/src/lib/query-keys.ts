/**
 * Every TanStack Query key of the app, one entry per server resource, so a page that reads a
 * resource and a mutation (or the live event stream) that marks it stale name the same key.
 * Each family starts with its resource's prefix: invalidating `queryKeys.x.all` reaches its
 * lists, details and the rest alike. Texts that depend on the interface language carry it
 * last, so a language switch fetches them again.
 */

/** A record id; null while the page has none yet (the query is then disabled). */
type Id = number | string | null;

export const queryKeys = {
  currentUser: ['current-user'] as const,
  configs: ['configs'] as const,
  currencies: ['currencies'] as const,
  networks: ['networks'] as const,
  swapRates: ['swap-rates'] as const,
  balances: {
    all: ['balances'] as const,
    one: (currencyId: number | undefined) => ['balances', currencyId] as const,
  },
  deposits: {
    all: ['deposits'] as const,
    list: (filter: 'all' | { status: string } | { statuses: readonly string[] }) => ['deposits', 'list', filter] as const,
    detail: (id: Id) => ['deposits', 'detail', id] as const,
  },
  /** The user's deposit addresses, and the one for a network (allocated when missing; never changes). */
  depositAddresses: ['deposit-addresses'] as const,
  depositAddress: (networkId: number | undefined) => ['deposit-address', networkId] as const,
  withdrawals: {
    all: ['withdrawals'] as const,
    lists: ['withdrawals', 'list'] as const,
    list: (filter: 'all') => ['withdrawals', 'list', filter] as const,
    detail: (id: Id) => ['withdrawals', 'detail', id] as const,
    allLimits: ['withdrawals', 'limits'] as const,
    limits: (networkId: number) => ['withdrawals', 'limits', networkId] as const,
    /** The fee quote of a network (and destination): under `all`, so a withdrawal renews it. */
    quote: (networkId: number, address: string) => ['withdrawals', 'quote', networkId, address] as const,
  },
  transfers: {
    all: ['transfers'] as const,
    detail: (id: Id) => ['transfers', 'detail', id] as const,
    recentRecipients: ['transfers', 'recentRecipients'] as const,
  },
  swaps: {
    all: ['swaps'] as const,
    detail: (id: Id) => ['swaps', 'detail', id] as const,
  },
  turnover: {
    all: ['turnover'] as const,
    list: (filters: object) => ['turnover', filters] as const,
    detail: (id: Id) => ['turnover', 'detail', id] as const,
  },
  notifySettings: ['notify-settings'] as const,
  notices: {
    all: ['notices'] as const,
    lists: ['notices', 'list'] as const,
    list: (language: string) => ['notices', 'list', language] as const,
    detail: (id: Id, language: string) => ['notices', 'detail', id, language] as const,
    unreadCount: ['notices', 'unread-count'] as const,
  },
  banners: {
    detail: (id: Id, language: string) => ['banners', 'detail', id, language] as const,
  },
  activities: {
    list: (language: string) => ['activities', 'list', language] as const,
    detail: (id: Id, language: string) => ['activities', 'detail', id, language] as const,
    ranking: (id: Id) => ['activities', 'ranking', id] as const,
    myRank: (id: Id) => ['activities', 'my-rank', id] as const,
  },
  help: {
    list: (language: string, q: string) => ['help', 'list', language, q] as const,
    article: (id: Id, language: string) => ['help', 'article', id, language] as const,
  },
  passkeys: ['passkeys'] as const,
  /** This session's recent re-authentication (adding a passkey needs one). */
  reauth: ['reauth'] as const,
  addressBook: ['addressBook'] as const,
  security: {
    all: ['security'] as const,
    twoFactorReset: ['security', 'twoFactorReset'] as const,
    sessions: ['security', 'sessions'] as const,
    signIns: (pageSize: number) => ['security', 'signins', pageSize] as const,
    antiPhishing: ['security', 'antiPhishing'] as const,
    hold: ['security', 'hold'] as const,
  },
} as const;
