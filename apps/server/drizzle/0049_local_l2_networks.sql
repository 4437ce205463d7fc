-- A second local chain, "L2 (local)" (anvil, chain id 31338), started beside the first in
-- embedded mode (docs/decisions/050-several-networks.md): ETH, USDT and USDC on it as networks of
-- the same currencies, so a user holds one USDT balance whichever network it came by. Its ETH
-- is the chain's gas coin (gas is booked on the chain's native network, and the hot wallet's
-- genesis funding is booked on it). An L2 is cheaper and faster: a tenth of the withdraw fee and
-- one confirmation. The token contracts are set at start by the local chain bootstrap. A server
-- that does not connect chain 31338 does not list these networks.
INSERT INTO networks (currency_id, name, chain_id, native, contract, token_decimals, confirmations, min_deposit,
                      withdraw_fee, min_withdraw, max_withdraw, daily_withdraw_limit, review_threshold, sort)
SELECT c.id, v.name, 31338, v.code = 'ETH', NULL, v.decimals, 1, v.min_deposit, v.fee, v.min_w, v.max_w, v.daily, v.review, v.sort
FROM (VALUES
  ('ETH', 'L2 (local)', 18, 0.001, 0.00005, 0.002, 100, 200, 50, 11),
  ('USDT', 'L2 (local)', 6, 1, 0.1, 2, 100000, 200000, 50000, 12),
  ('USDC', 'L2 (local)', 6, 1, 0.1, 2, 100000, 200000, 50000, 13)
) AS v(code, name, decimals, min_deposit, fee, min_w, max_w, daily, review, sort)
JOIN currencies c ON c.code = v.code
ON CONFLICT DO NOTHING;
