-- System accounts created on demand get the same floors as the seeded ones (0002):
-- fees never go below zero and the house has no credit line until the operator sets its
-- limit (HOUSE_LIMITS / POST /api/swap/admin/houseLimit, which lowers the floor to -limit);
-- world and adjustments stay unbounded because they mirror money entering or leaving.
-- Before this, an on-demand house or fees account (a currency added after 0002) was unbounded.
CREATE OR REPLACE FUNCTION ledger_account(p_user bigint, p_currency integer, p_kind text)
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  IF p_user IS NULL THEN
    SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND currency_id = p_currency AND kind = p_kind;
  ELSE
    SELECT id INTO v_id FROM accounts WHERE user_id = p_user AND currency_id = p_currency AND kind = p_kind;
  END IF;
  IF v_id IS NOT NULL THEN
    RETURN v_id;
  END IF;
  INSERT INTO accounts (currency_id, user_id, kind, min_balance)
  VALUES (p_currency, p_user, p_kind,
          CASE WHEN p_user IS NOT NULL OR p_kind IN ('fees', 'house') THEN 0 ELSE NULL END)
  ON CONFLICT DO NOTHING
  RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    -- Lost a race with a concurrent creator: read the winner's row.
    IF p_user IS NULL THEN
      SELECT id INTO v_id FROM accounts WHERE user_id IS NULL AND currency_id = p_currency AND kind = p_kind;
    ELSE
      SELECT id INTO v_id FROM accounts WHERE user_id = p_user AND currency_id = p_currency AND kind = p_kind;
    END IF;
  END IF;
  RETURN v_id;
END $$;
--> statement-breakpoint

-- The swap module's resolver now shares ledger_account's floors instead of its own copy.
CREATE OR REPLACE FUNCTION swap_system_account(p_currency integer, p_kind text)
RETURNS bigint LANGUAGE sql AS $$
  SELECT ledger_account(NULL, p_currency, p_kind)
$$;
