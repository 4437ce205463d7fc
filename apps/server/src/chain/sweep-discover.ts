import { erc20Abi, getAddress, parseUnits } from 'viem';
import type { SweepContext } from './sweep-context.ts';
import { TRANSFER_GAS } from './sweep-context.ts';
import { inTransaction } from './txs.ts';

interface CandidateRow {
  network_id: number;
  address: string;
  address_index: number;
  credited: number;
  native: boolean;
  contract: string | null;
  token_decimals: number;
  code: string;
}

/**
 * New credits -> sweeps: the deposit addresses credited since their balance was last read
 * (sweep_checks), each read once, and a sweep opened where the balance is worth it (one open
 * sweep per address). Returns the ids of the sweeps opened.
 */
export async function discoverSweeps(ctx: SweepContext, busy: Set<string>, minSweep: Readonly<Record<string, string>>): Promise<number[]> {
  const candidates = await ctx.database.sql.query<CandidateRow>(
    `select d.network_id, da.address, da.address_index, count(*)::int as credited,
            n.native, n.contract, n.token_decimals, c.code
     from deposits d
     join networks n on n.id = d.network_id
     join currencies c on c.id = n.currency_id
     join deposit_addresses da on da.chain_id = n.chain_id and lower(da.address) = lower(d.address)
     left join sweep_checks sc on sc.network_id = d.network_id and sc.address = da.address
     where n.chain_id = $1 and d.entry_id is not null and (n.native or n.contract is not null)
     group by d.network_id, da.address, da.address_index, n.native, n.contract, n.token_decimals, c.code, sc.credited_count
     having count(*) > coalesce(sc.credited_count, 0)
     order by n.native, da.address_index, d.network_id`,
    [ctx.chainId],
  );
  const free = candidates.filter((c) => !busy.has(c.address.toLowerCase()));
  if (free.length === 0) return [];
  const [gas, ...balances] = await Promise.all([
    ctx.nodePrice(),
    ...free.map((c) =>
      c.native
        ? ctx.client.getBalance({ address: getAddress(c.address) })
        : ctx.client.readContract({
            address: getAddress(c.contract as string),
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [getAddress(c.address)],
          }),
    ),
  ]);
  const created: number[] = [];
  for (const [i, c] of free.entries()) {
    if (busy.has(c.address.toLowerCase())) continue; // a sweep of another asset was just opened here
    ctx.result.checked++;
    const balance = balances[i] as bigint;
    const min = parseUnits(minSweep[c.code] ?? '0', c.token_decimals);
    const worth = c.native ? balance > TRANSFER_GAS * gas && balance >= min : balance > 0n && balance >= min;
    const id = await inTransaction(ctx.database, async (q) => {
      let sweepId: number | null = null;
      if (worth) {
        // a new sweep starts in its machine's first status (ETH needs no top-up)
        const [row] = await q<{ id: number | string }>(
          `insert into sweeps (network_id, deposit_address, address_index, amount, status) values ($1, $2, $3, $4::numeric, $5) returning id`,
          [c.network_id, getAddress(c.address), c.address_index, balance.toString(), c.native ? 'ready' : 'gas_required'],
        );
        sweepId = Number(row?.id);
      }
      await q(
        `insert into sweep_checks (network_id, address, credited_count) values ($1, $2, $3)
         on conflict (network_id, address) do update set credited_count = excluded.credited_count, checked_at = now()`,
        [c.network_id, c.address, c.credited],
      );
      return sweepId;
    });
    if (id !== null) {
      busy.add(c.address.toLowerCase());
      created.push(id);
      ctx.result.created++;
      ctx.log.info({ sweep: id, network: c.network_id, address: c.address, amount: balance.toString() }, 'sweep opened');
    }
  }
  return created;
}
