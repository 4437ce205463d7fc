import { type MigrationCheck, same } from './checks.ts';

/** 0061 fills explorer_tx_url from explorer_url only where it has the usual /address/{address} shape. */
export const explorerTxLinks: MigrationCheck = {
  migration: '0061_explorer_tx_links',
  what: 'a transaction page derived from an /address/{address} template, none from any other shape',
  async before(sql) {
    await sql.query(`update networks set explorer_url = 'https://etherscan.io/address/{address}' where chain_id = 31337 and native`);
    await sql.query(
      `update networks set explorer_url = 'https://scan.example/find?a={address}'
        where id = (select min(id) from networks where chain_id = 31337 and not native)`,
    );
  },
  async after(sql) {
    const rows = await sql.query<{ explorer_url: string; explorer_tx_url: string | null }>(
      `select explorer_url, explorer_tx_url from networks where explorer_url is not null order by explorer_url`,
    );
    same(
      rows.map((r) => [r.explorer_url, r.explorer_tx_url]),
      [
        ['https://etherscan.io/address/{address}', 'https://etherscan.io/tx/{tx}'],
        ['https://scan.example/find?a={address}', null],
      ],
      '0061 explorer_tx_url',
    );
  },
};
