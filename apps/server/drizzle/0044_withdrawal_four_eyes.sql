-- The review an operator can stand behind, and four eyes on large withdrawals
-- (docs/decisions/044-withdrawal-review-four-eyes.md).
--   networks.explorer_url           a block explorer's page of an address, '{address}' in it
--                                   (e.g. https://etherscan.io/address/{address}); null: none
--   networks.second_approval_above  a withdrawal in review above this amount (the network's
--                                   currency) needs two different operators; null: never
--   withdrawals.first_approved_*    the first of the two approvals: who, when, why
-- The two-people rule holds in the table itself (withdrawals_four_eyes_check): once a first
-- approval is on a row, it leaves review for the sender only with reviewed_by another operator.
-- coffer_withdraw_approve is the one way an approval is written (threshold read at the moment
-- of the decision); coffer_network_* learn the two settings.
ALTER TABLE "networks" ADD COLUMN "explorer_url" text;
--> statement-breakpoint
ALTER TABLE "networks" ADD COLUMN "second_approval_above" numeric(38, 18);
--> statement-breakpoint
ALTER TABLE "networks" ADD CONSTRAINT "networks_second_approval_check" CHECK ("second_approval_above" >= 0);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "first_approved_by" bigint REFERENCES "users"("id");
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "first_approved_by_email" text;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "first_approved_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD COLUMN "first_approval_reason" text;
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_first_approval_check" CHECK (
  ("first_approved_by" IS NULL) = ("first_approved_at" IS NULL)
  AND ("first_approved_by" IS NULL) = ("first_approved_by_email" IS NULL)
  AND ("first_approved_by" IS NULL) = ("first_approval_reason" IS NULL));
--> statement-breakpoint
-- the rule itself, whatever the code above it does: rejected or cancelled after a first approval
-- is fine (one operator may stop a payout), on its way out it needs a second, different one
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_four_eyes_check" CHECK (
  "first_approved_by" IS NULL OR "status" IN ('review', 'rejected', 'cancelled')
  OR ("reviewed_by" IS NOT NULL AND "reviewed_by" <> "first_approved_by"));
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.coffer_network_json(n networks)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT jsonb_build_object(
    'contract', n.contract,
    'tokenDecimals', n.token_decimals,
    'confirmations', n.confirmations,
    'minDeposit', trim_scale(n.min_deposit)::text,
    'withdrawFee', trim_scale(n.withdraw_fee)::text,
    'minWithdraw', trim_scale(n.min_withdraw)::text,
    'maxWithdraw', trim_scale(n.max_withdraw)::text,
    'dailyWithdrawLimit', trim_scale(n.daily_withdraw_limit)::text,
    'reviewThreshold', trim_scale(n.review_threshold)::text,
    'depositEnabled', n.deposit_enabled,
    'withdrawEnabled', n.withdraw_enabled,
    'gasPriceCapWei', n.gas_price_cap_wei::text,
    'maxFeeBumps', n.max_fee_bumps,
    'feeMarginPercent', n.fee_margin_percent,
    'hotCeiling', trim_scale(n.hot_ceiling)::text,
    'hotFloor', trim_scale(n.hot_floor)::text,
    'coldAddress', n.cold_address,
    'secondApprovalAbove', trim_scale(n.second_approval_above)::text,
    'explorerUrl', n.explorer_url)
$function$
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.coffer_network_apply(n networks, p_key text, p_value text)
 RETURNS networks
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
  CASE p_key
    WHEN 'contract' THEN n.contract := p_value;
    WHEN 'tokenDecimals' THEN n.token_decimals := p_value::integer;
    WHEN 'confirmations' THEN n.confirmations := p_value::integer;
    WHEN 'minDeposit' THEN n.min_deposit := p_value::numeric;
    WHEN 'withdrawFee' THEN n.withdraw_fee := p_value::numeric;
    WHEN 'minWithdraw' THEN n.min_withdraw := p_value::numeric;
    WHEN 'maxWithdraw' THEN n.max_withdraw := p_value::numeric;
    WHEN 'dailyWithdrawLimit' THEN n.daily_withdraw_limit := p_value::numeric;
    WHEN 'reviewThreshold' THEN n.review_threshold := p_value::numeric;
    WHEN 'depositEnabled' THEN n.deposit_enabled := p_value::boolean;
    WHEN 'withdrawEnabled' THEN n.withdraw_enabled := p_value::boolean;
    WHEN 'gasPriceCapWei' THEN n.gas_price_cap_wei := p_value::numeric;
    WHEN 'maxFeeBumps' THEN n.max_fee_bumps := p_value::integer;
    WHEN 'feeMarginPercent' THEN n.fee_margin_percent := p_value::integer;
    WHEN 'hotCeiling' THEN n.hot_ceiling := p_value::numeric;
    WHEN 'hotFloor' THEN n.hot_floor := p_value::numeric;
    WHEN 'coldAddress' THEN n.cold_address := p_value;
    WHEN 'secondApprovalAbove' THEN n.second_approval_above := p_value::numeric;
    WHEN 'explorerUrl' THEN n.explorer_url := p_value;
    ELSE RAISE EXCEPTION 'network setting invalid: %', p_key USING ERRCODE = 'CN027';
  END CASE;
  RETURN n;
EXCEPTION
  WHEN invalid_text_representation OR numeric_value_out_of_range OR invalid_parameter_value THEN
    RAISE EXCEPTION 'network setting invalid: %', p_key USING ERRCODE = 'CN027';
END $function$
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.coffer_network_check(n networks, p_hot_address text)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_dec integer;
  v_bad text;
BEGIN
  SELECT least(c.decimals, n.token_decimals) INTO v_dec FROM currencies c WHERE c.id = n.currency_id;
  v_bad := CASE
    WHEN n.contract IS NOT NULL AND (n.native OR n.contract !~ '^0x[0-9a-fA-F]{40}$'
         OR EXISTS (SELECT 1 FROM networks o WHERE o.chain_id = n.chain_id AND o.id <> n.id AND lower(o.contract) = lower(n.contract)))
      THEN 'contract'
    WHEN n.token_decimals IS NULL OR n.token_decimals NOT BETWEEN 0 AND 36 OR (n.native AND n.token_decimals <> 18) THEN 'tokenDecimals'
    WHEN n.confirmations IS NULL OR n.confirmations NOT BETWEEN 1 AND 1000 THEN 'confirmations'
    WHEN n.min_deposit IS NULL OR n.min_deposit <= 0 OR n.min_deposit <> round(n.min_deposit, v_dec) THEN 'minDeposit'
    WHEN n.withdraw_fee IS NULL OR n.withdraw_fee < 0 OR n.withdraw_fee <> round(n.withdraw_fee, v_dec) THEN 'withdrawFee'
    WHEN n.min_withdraw IS NULL OR n.min_withdraw <= 0 OR n.min_withdraw <> round(n.min_withdraw, v_dec) THEN 'minWithdraw'
    WHEN n.max_withdraw IS NULL OR n.max_withdraw < n.min_withdraw OR n.max_withdraw <> round(n.max_withdraw, v_dec) THEN 'maxWithdraw'
    WHEN n.daily_withdraw_limit IS NULL OR n.daily_withdraw_limit < n.max_withdraw
         OR n.daily_withdraw_limit <> round(n.daily_withdraw_limit, v_dec) THEN 'dailyWithdrawLimit'
    WHEN n.review_threshold <= 0 OR n.review_threshold <> round(n.review_threshold, v_dec) THEN 'reviewThreshold'
    WHEN n.deposit_enabled IS NULL THEN 'depositEnabled'
    WHEN n.withdraw_enabled IS NULL THEN 'withdrawEnabled'
    WHEN n.gas_price_cap_wei <= 0 OR n.gas_price_cap_wei <> trunc(n.gas_price_cap_wei) THEN 'gasPriceCapWei'
    WHEN n.max_fee_bumps IS NULL OR n.max_fee_bumps NOT BETWEEN 0 AND 50 THEN 'maxFeeBumps'
    WHEN n.fee_margin_percent IS NULL OR n.fee_margin_percent NOT BETWEEN 0 AND 500 THEN 'feeMarginPercent'
    WHEN n.hot_ceiling <= 0 OR n.hot_ceiling <> round(n.hot_ceiling, v_dec) THEN 'hotCeiling'
    WHEN n.hot_floor < 0 OR n.hot_floor <> round(n.hot_floor, v_dec) OR n.hot_floor >= n.hot_ceiling THEN 'hotFloor'
    WHEN (n.hot_ceiling IS NOT NULL AND n.cold_address IS NULL) OR n.cold_address !~ '^0x[0-9a-fA-F]{40}$'
         OR EXISTS (SELECT 1 FROM networks o WHERE o.chain_id = n.chain_id AND lower(o.contract) = lower(n.cold_address))
      THEN 'coldAddress'
    WHEN n.second_approval_above < 0 OR n.second_approval_above <> round(n.second_approval_above, v_dec) THEN 'secondApprovalAbove'
    WHEN char_length(n.explorer_url) > 300 OR n.explorer_url !~ '^https?://[^\s/?#]+[^\s]*$'
         OR position('{address}' in n.explorer_url) = 0 THEN 'explorerUrl'
  END;
  IF v_bad IS NOT NULL THEN
    RAISE EXCEPTION 'network setting invalid: %', v_bad USING ERRCODE = 'CN027';
  END IF;
  -- Payouts on a real chain are signed under a price ceiling: an uncapped fee spike would
  -- drain the hot wallet's float (docs/decisions/041-network-settings.md).
  IF n.gas_price_cap_wei IS NULL AND n.chain_id NOT IN (31337, 1337) THEN
    RAISE EXCEPTION 'network setting invalid: gasPriceCapWei' USING ERRCODE = 'CN028';
  END IF;
  -- The cold address is watch-only: a key Coffer holds (hot wallet, deposit addresses) would
  -- make "cold" coins hot again.
  IF n.cold_address IS NOT NULL AND (lower(n.cold_address) = lower(p_hot_address)
     OR EXISTS (SELECT 1 FROM deposit_addresses a WHERE a.chain_id = n.chain_id AND lower(a.address) = lower(n.cold_address))) THEN
    RAISE EXCEPTION 'network setting invalid: coldAddress' USING ERRCODE = 'CN029';
  END IF;
END $function$
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.coffer_network_set(p_network integer, p_changes jsonb, p_hot_address text, p_actor_user bigint, p_actor text, p_reason text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_old networks;
  v_new networks;
  v_key text;
  v_value jsonb;
BEGIN
  IF p_reason IS NULL OR btrim(p_reason) = '' OR p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'a network change needs a reason and an actor' USING ERRCODE = '22023';
  END IF;
  IF p_changes IS NULL OR jsonb_typeof(p_changes) <> 'object' THEN
    RAISE EXCEPTION 'network setting invalid: changes' USING ERRCODE = 'CN027';
  END IF;
  SELECT * INTO v_old FROM networks WHERE id = p_network FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'network % not found', p_network USING ERRCODE = 'CB404';
  END IF;
  v_new := v_old;
  FOR v_key, v_value IN SELECT key, value FROM jsonb_each(p_changes) ORDER BY key LOOP
    IF jsonb_typeof(v_value) NOT IN ('string', 'number', 'boolean', 'null') THEN
      RAISE EXCEPTION 'network setting invalid: %', v_key USING ERRCODE = 'CN027';
    END IF;
    v_new := coffer_network_apply(v_new, v_key, v_value #>> '{}');
  END LOOP;
  PERFORM coffer_network_check(v_new, p_hot_address);
  IF coffer_network_json(v_old) = coffer_network_json(v_new) THEN
    RETURN false;
  END IF;
  UPDATE networks SET contract = v_new.contract, token_decimals = v_new.token_decimals, confirmations = v_new.confirmations,
         min_deposit = v_new.min_deposit, withdraw_fee = v_new.withdraw_fee, min_withdraw = v_new.min_withdraw,
         max_withdraw = v_new.max_withdraw, daily_withdraw_limit = v_new.daily_withdraw_limit,
         review_threshold = v_new.review_threshold, deposit_enabled = v_new.deposit_enabled,
         withdraw_enabled = v_new.withdraw_enabled, gas_price_cap_wei = v_new.gas_price_cap_wei,
         max_fee_bumps = v_new.max_fee_bumps, fee_margin_percent = v_new.fee_margin_percent,
         hot_ceiling = v_new.hot_ceiling, hot_floor = v_new.hot_floor, cold_address = v_new.cold_address,
         second_approval_above = v_new.second_approval_above, explorer_url = v_new.explorer_url
   WHERE id = p_network
  RETURNING * INTO v_new;
  PERFORM coffer_operator_action(p_actor_user, p_actor, 'network.update', 'network', p_network::text, p_reason,
    coffer_network_json(v_old), coffer_network_json(v_new));
  RETURN true;
END $function$
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.coffer_withdraw_approve(p_withdrawal bigint, p_actor bigint, p_actor_email text, p_reason text)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_w withdrawals%ROWTYPE;
  v_above numeric;
BEGIN
  IF p_actor IS NULL OR p_reason IS NULL OR btrim(p_reason) = '' THEN
    RAISE EXCEPTION 'an approval needs an operator and a reason' USING ERRCODE = '22023';
  END IF;
  SELECT * INTO v_w FROM withdrawals WHERE id = p_withdrawal FOR UPDATE;
  IF NOT FOUND OR v_w.status <> 'review' THEN
    RAISE EXCEPTION 'withdrawal % is not waiting for review', p_withdrawal USING ERRCODE = 'CB007';
  END IF;
  IF v_w.first_approved_by IS NOT NULL THEN
    -- once a first approval is recorded the withdrawal needs a second operator, whatever the
    -- threshold says now
    IF v_w.first_approved_by = p_actor THEN
      RAISE EXCEPTION 'withdrawal % needs a second, different operator', p_withdrawal USING ERRCODE = 'CB041';
    END IF;
  ELSE
    SELECT second_approval_above INTO v_above FROM networks WHERE id = v_w.network_id;
    IF v_above IS NOT NULL AND v_w.amount > v_above THEN
      UPDATE withdrawals SET first_approved_by = p_actor, first_approved_by_email = p_actor_email, first_approved_at = now(),
             first_approval_reason = p_reason, updated_at = now()
       WHERE id = p_withdrawal;
      RETURN 'first';
    END IF;
  END IF;
  UPDATE withdrawals SET status = 'queued', reason = p_reason, reviewed_by = p_actor, updated_at = now() WHERE id = p_withdrawal;
  INSERT INTO user_events (user_id, type, ref_id, status) VALUES (v_w.user_id, 'withdraw', p_withdrawal, 'queued');
  RETURN 'queued';
END $function$
