-- Content operators write and everyone reads: banners, notices (public and per user, with
-- read state) and help articles by topic. Titles are one line, bodies Markdown (rendered to
-- safe HTML by the server), each in zh-CN and en-US (docs/decisions/014-content-and-markdown.md).
CREATE TABLE banners (
  id bigserial PRIMARY KEY,
  title_zh text NOT NULL CHECK (length(title_zh) BETWEEN 1 AND 100),
  title_en text NOT NULL CHECK (length(title_en) BETWEEN 1 AND 100),
  body_zh text NOT NULL DEFAULT '' CHECK (length(body_zh) <= 20000),
  body_en text NOT NULL DEFAULT '' CHECK (length(body_en) <= 20000),
  -- /uploads/<sha256>.<ext> (a file under DATA_DIR/uploads) or an https URL.
  image_url text NOT NULL CHECK (length(image_url) BETWEEN 1 AND 500 AND (image_url LIKE '/uploads/%' OR image_url LIKE 'https://%')),
  -- detail: its own /banner/detail page; ranking: /banner/ranking?id=<link_target> (an
  -- activity id); route: link_target is an in-app path.
  link_type text NOT NULL CHECK (link_type IN ('detail', 'ranking', 'route')),
  link_target text CHECK (length(link_target) <= 200),
  sort_order integer NOT NULL DEFAULT 0 CHECK (sort_order BETWEEN 0 AND 1000000),
  starts_at timestamptz NOT NULL DEFAULT now(),
  ends_at timestamptz,
  retired_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at IS NULL OR ends_at > starts_at),
  CHECK (
    (link_type = 'detail' AND link_target IS NULL)
    OR (link_type = 'ranking' AND link_target ~ '^[1-9][0-9]{0,15}$')
    OR (link_type = 'route' AND link_target ~ '^/([^/\\]|$)')
  )
);
--> statement-breakpoint
CREATE INDEX banners_live_idx ON banners (sort_order, id) WHERE retired_at IS NULL;
--> statement-breakpoint
-- user_id null: a public notice for everyone; else for that user alone. A notice is shown
-- from published_at on (an operator may schedule it) until it is retired.
CREATE TABLE notices (
  id bigserial PRIMARY KEY,
  user_id bigint REFERENCES users (id),
  kind text NOT NULL DEFAULT 'general' CHECK (kind ~ '^[a-z][a-z0-9_]{0,31}$'),
  title_zh text NOT NULL CHECK (length(title_zh) BETWEEN 1 AND 100),
  title_en text NOT NULL CHECK (length(title_en) BETWEEN 1 AND 100),
  body_zh text NOT NULL DEFAULT '' CHECK (length(body_zh) <= 20000),
  body_en text NOT NULL DEFAULT '' CHECK (length(body_en) <= 20000),
  published_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz,
  -- Set by features that send notices (e.g. "activity:7:prize:42"): one notice per key, so a
  -- re-run of the sender does not notify twice.
  dedupe_key text UNIQUE CHECK (length(dedupe_key) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX notices_public_idx ON notices (published_at DESC, id DESC) WHERE user_id IS NULL;
--> statement-breakpoint
CREATE INDEX notices_user_idx ON notices (user_id, published_at DESC, id DESC) WHERE user_id IS NOT NULL;
--> statement-breakpoint
-- One row per notice a user has read (opened it, or marked all read).
CREATE TABLE notice_reads (
  user_id bigint NOT NULL REFERENCES users (id),
  notice_id bigint NOT NULL REFERENCES notices (id),
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, notice_id)
);
--> statement-breakpoint
-- A notice to one user, published now, from inside the caller's transaction (e.g. an
-- activity's prize payout). With a dedupe key a second call inserts nothing and returns the
-- id of the notice the first call made. Bodies are Markdown.
CREATE FUNCTION coffer_notice_to_user(
  p_user_id bigint,
  p_kind text,
  p_title_zh text,
  p_title_en text,
  p_body_zh text,
  p_body_en text,
  p_dedupe_key text
) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  IF p_user_id IS NULL THEN
    RAISE EXCEPTION 'coffer_notice_to_user: user id is required' USING ERRCODE = 'P0001';
  END IF;
  INSERT INTO notices (user_id, kind, title_zh, title_en, body_zh, body_en, dedupe_key)
  VALUES (p_user_id, p_kind, p_title_zh, p_title_en, coalesce(p_body_zh, ''), coalesce(p_body_en, ''), p_dedupe_key)
  ON CONFLICT (dedupe_key) DO NOTHING
  RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    SELECT id INTO v_id FROM notices WHERE dedupe_key = p_dedupe_key;
  END IF;
  RETURN v_id;
END;
$$;
--> statement-breakpoint
CREATE TABLE help_topics (
  id bigserial PRIMARY KEY,
  key text NOT NULL UNIQUE CHECK (key ~ '^[a-z][a-z0-9-]{0,31}$'),
  title_zh text NOT NULL CHECK (length(title_zh) BETWEEN 1 AND 100),
  title_en text NOT NULL CHECK (length(title_en) BETWEEN 1 AND 100),
  sort_order integer NOT NULL DEFAULT 0 CHECK (sort_order BETWEEN 0 AND 1000000),
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE help_articles (
  id bigserial PRIMARY KEY,
  topic_id bigint NOT NULL REFERENCES help_topics (id),
  title_zh text NOT NULL CHECK (length(title_zh) BETWEEN 1 AND 100),
  title_en text NOT NULL CHECK (length(title_en) BETWEEN 1 AND 100),
  body_zh text NOT NULL CHECK (length(body_zh) <= 20000),
  body_en text NOT NULL CHECK (length(body_en) <= 20000),
  sort_order integer NOT NULL DEFAULT 0 CHECK (sort_order BETWEEN 0 AND 1000000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX help_articles_topic_idx ON help_articles (topic_id, sort_order, id);
--> statement-breakpoint
-- Starter help, written against how Coffer works today (figures an operator can change per
-- network or pair are described, not quoted). Operators edit it in the console.
INSERT INTO help_topics (key, title_zh, title_en, sort_order) VALUES
  ('account', '注册与登录', 'Account and sign-in', 10),
  ('security', '账户安全', 'Security', 20),
  ('deposit-withdraw', '充值与提现', 'Deposits and withdrawals', 30),
  ('transfer-swap', '转账与兑换', 'Transfers and swaps', 40),
  ('bills-fees', '账单与费用', 'Bills and fees', 50);
--> statement-breakpoint
INSERT INTO help_articles (topic_id, sort_order, title_zh, title_en, body_zh, body_en)
SELECT t.id, a.sort_order, a.title_zh, a.title_en, a.body_zh, a.body_en
FROM (VALUES
('account', 10, '如何注册', 'How do I sign up?',
$md$1. 打开[注册](/register)页面，填写邮箱。
2. 点击获取验证码：我们会向该邮箱发送 **6 位数字验证码**，**10 分钟内有效**。
3. 设置密码：长度 **8–128 位**，任意字符均可；过于常见或容易被猜到的密码会被拒绝。
4. 填写验证码（昵称可选）并提交，注册成功后即自动登录。

同一邮箱同一用途在 24 小时内输错验证码 10 次后，将暂时无法再用验证码，请稍后再试。$md$,
$md$1. Open [Sign up](/register) and enter your e-mail address.
2. Ask for a code: we mail a **6-digit code** to that address. It is **valid for 10 minutes**.
3. Choose a password of **8 to 128 characters** (any characters). Passwords that are common or easy to guess are refused.
4. Enter the code (a nickname is optional) and submit. You are signed in straight away.

After 10 wrong codes for one address and purpose within 24 hours, codes are refused for a while; try again later.$md$),
('account', 20, '登录与找回密码', 'Signing in and resetting your password',
$md$在[登录](/login)页面输入邮箱和密码即可登录；如已开启两步验证，还需输入身份验证器中的动态码（或一次性恢复码），也可以使用通行密钥。

- 同一邮箱连续多次密码错误后，每次尝试都会稍作等待，这能阻止猜测密码，但不会锁定您的账户。
- 登录默认保持 7 天，可在[安全中心](/settings/security)随时退出其他设备。
- 忘记密码：在[找回密码](/forgot-password)页面通过邮箱验证码设置新密码。重置后，所有已登录的设备都会退出，我们也会发邮件通知您。$md$,
$md$Sign in on [Sign in](/login) with your e-mail and password. With two-factor on, you also enter the code from your authenticator app (or a one-time recovery code), or use a passkey instead.

- After several wrong passwords for one address, each further try waits a little. This stops guessing without locking you out.
- A sign-in lasts 7 days by default; you can sign out other devices any time in the [security centre](/settings/security).
- Forgot your password? Set a new one on [Reset password](/forgot-password) with an e-mailed code. A reset signs out every device, and we mail you about it.$md$),
('security', 10, '两步验证（身份验证器）', 'Two-factor authentication',
$md$在[两步验证](/settings/2fa)页面用身份验证器 App（如 Google Authenticator、1Password）扫码，并输入第一个动态码即可开启。

- 开启时会显示 **10 个一次性恢复码**，只显示这一次，请离线妥善保存；手机丢失时可用它登录或关闭两步验证。
- 开启后，**登录**和**提现**都需要动态码（每 30 秒变化，同一个码只能用一次）。
- 关闭两步验证需要输入动态码或恢复码。开启、关闭都会发邮件通知您。$md$,
$md$Open [Two-factor](/settings/2fa), scan the code with an authenticator app (Google Authenticator, 1Password and the like) and enter its first code to turn it on.

- You get **ten one-time recovery codes**, shown only once. Keep them offline: they sign you in (or turn two-factor off) if you lose your phone.
- Once on, **sign-in** and **withdrawals** ask for the current code (it changes every 30 seconds and each code works once).
- Turning it off needs a code or a recovery code. We mail you when it is turned on or off.$md$),
('security', 20, '通行密钥（Passkey）', 'Passkeys',
$md$通行密钥用设备的指纹、面容或锁屏密码代替密码，无法被钓鱼网站骗取。

- 在[通行密钥](/settings/passkeys)页面添加，可添加多个（例如手机和电脑各一个），也可随时删除。
- 登录时选择“使用通行密钥”即可免密码登录；开启两步验证时，也可以用通行密钥代替动态码。
- 添加或删除通行密钥都会发邮件通知您。$md$,
$md$A passkey lets your device's fingerprint, face or screen lock stand in for your password, and a phishing site cannot trick it out of you.

- Add one on [Passkeys](/settings/passkeys); you can have several (say, phone and laptop) and remove any of them.
- On the sign-in page choose the passkey option to sign in without a password. With two-factor on, a passkey can also replace the code.
- We mail you whenever a passkey is added or removed.$md$),
('security', 30, '安全中心：登录设备、登录记录与防钓鱼码', 'Security centre: sessions, sign-in history and anti-phishing phrase',
$md$[安全中心](/settings/security)集中管理账户安全：

- **登录设备**：查看所有已登录的设备（设备、IP、最近使用时间），可单独退出，或一键退出除当前设备外的全部设备。
- **登录记录**：每一次登录尝试（包括密码错误）都有记录。
- **防钓鱼码**：设置一段只有您知道的短语（最多 32 个字符），它会显示在 Coffer 发给您的每一封邮件开头。没有这段短语的邮件不是我们发的。
- 从新设备或新 IP 登录、重置或修改密码时，我们会发邮件提醒您。若不是您本人操作，请立即修改密码并退出其他设备。$md$,
$md$The [security centre](/settings/security) keeps your account's safety in one place:

- **Sessions**: every device signed in (device, IP, last used). Sign out one, or every one except this device.
- **Sign-in history**: every sign-in attempt, wrong passwords included.
- **Anti-phishing phrase**: a short phrase only you know (up to 32 characters), printed at the top of every mail Coffer sends you. A mail without it is not from us.
- We mail you on a sign-in from a new device or IP and when your password is reset or changed. If it was not you, change your password and sign out the other sessions at once.$md$),
('deposit-withdraw', 10, '如何充值', 'How do I deposit?',
$md$1. 打开[充值](/charge)，选择币种和网络。
2. 页面会显示**您专属的充值地址**（同一条链的各网络共用一个地址，地址不会变）。只能向该地址转入所选币种在该网络上的资产，转错币种或网络可能无法找回。
3. 转账上链后，充值记录会显示确认进度（例如 `1/3`），达到该网络要求的**确认数**后自动入账。

每个网络都有**最低充值金额**（页面上可见），低于该金额的充值不会自动入账，请联系客服。Coffer 不收取充值手续费。$md$,
$md$1. Open [Deposit](/charge) and pick the currency and network.
2. The page shows **your own deposit address** (the networks of one chain share one address; it never changes). Send only that currency on that network; coins sent on another network or of another kind may be lost.
3. Once the transaction is on chain, the deposit shows its confirmations (for example `1/3`) and is credited by itself when the network's **required confirmations** are reached.

Each network has a **minimum deposit** (shown on the page). A deposit below it is not credited automatically; contact support. Coffer charges no deposit fee.$md$),
('deposit-withdraw', 20, '如何提现', 'How do I withdraw?',
$md$1. 打开[提现](/withdraw)，选择币种和网络，填写目标地址和金额。地址会校验格式（含大小写校验和），错误地址会被拒绝。
2. 页面会显示该网络的**手续费**、单笔最小/最大金额和**今日剩余额度**。提交时冻结“金额 + 手续费”。
3. 输入发到您邮箱的**邮件验证码**；如已开启两步验证，还需输入动态码。
4. 提现依次经过：排队 → 已广播 → 确认中 → 已完成，页面实时更新。若最终失败，冻结的金额和手续费会全部退回可用余额。$md$,
$md$1. Open [Withdraw](/withdraw), pick the currency and network, and enter the address and amount. Addresses are checked (including their checksum); a wrong one is refused.
2. The page shows the network's **fee**, the smallest and largest amount per withdrawal and **what is left of today's limit**. Amount + fee are held when you submit.
3. Enter the **code mailed to you**, and, with two-factor on, your authenticator code.
4. The withdrawal moves through queued → broadcast → confirming → completed, live on the page. If it fails in the end, the amount and fee go back to your available balance.$md$),
('deposit-withdraw', 30, '提现审核、每日限额与撤销', 'Withdrawal review, daily limit and cancelling',
$md$- **每日限额**：每个网络每天可提现的总额有上限，按 UTC 自然日（北京时间每天 08:00）重置。超出时提示“超出限额”。
- **人工审核**：单笔金额达到该网络的审核门槛时，提现会先等待运营人员审核，通过后才会发出；被拒绝时金额和手续费全额退回。
- **撤销**：在**广播上链之前**（等待审核或排队中）可以撤销，金额和手续费立即退回可用余额；广播之后无法撤销。
- 当某个网络暂停提现（例如对账核查期间）时，提现会提示稍后再试，您的资金不受影响。$md$,
$md$- **Daily limit**: each network caps the total you can withdraw per day. The day is the UTC calendar day. Going over answers "Limit exceeded".
- **Review**: a withdrawal at or above the network's review threshold waits for an operator before it is sent. If it is rejected, amount and fee come back in full.
- **Cancel**: until it is **broadcast** (while waiting for review or queued) you can cancel it, and amount and fee return to your available balance at once. After broadcast it cannot be cancelled.
- When a network's payouts are paused (for instance while holdings are being reconciled), withdrawals ask you to try later; your funds are not affected.$md$),
('transfer-swap', 10, '站内转账', 'Sending to another Coffer user',
$md$在[转账](/transfer)页面，可以通过对方的**邮箱**或 **UID** 向其他 Coffer 用户转账：

- 提交前会显示收款人的昵称和头像，请核对无误；不能转给自己。
- 站内转账**即时到账**，**不收手续费**，不经过区块链。
- 可附加不超过 100 个字符的备注，双方的账单里都能看到。
- 转账一经完成无法撤回，请仔细确认收款人。$md$,
$md$On [Transfer](/transfer) you send to another Coffer user by their **e-mail** or **UID**:

- Before you send, the recipient's nickname and avatar are shown so you can check them. You cannot send to yourself.
- Transfers arrive **instantly**, carry **no fee** and never touch a blockchain.
- Add a memo of up to 100 characters if you like; both sides see it in their bills.
- A completed transfer cannot be taken back, so check the recipient first.$md$),
('transfer-swap', 20, '闪兑：报价、点差与手续费', 'Swaps: quotes, spread and fee',
$md$在[闪兑](/swap)页面可以在支持的币种之间直接兑换：

1. 选择卖出和买入的币种并输入卖出金额，即可看到**报价**：成交汇率、手续费和预计到账金额。
2. 报价**有效期约 15 秒**。过期或市场价格变动过大时会提示“报价已过期或汇率已变动”，刷新报价后再确认即可。
3. 价格由中间价扣除**点差**得出，另按比例收取**手续费**（从卖出或买入币种中扣除，视币对而定）。点差和手续费都已计入报价中显示的到账金额，没有额外费用。

兑换即时完成，记录可在[账单](/bill)中查看。$md$,
$md$On [Swap](/swap) you exchange one supported currency for another:

1. Pick what you sell and what you buy and enter the amount you sell. The **quote** shows the rate, the fee and what you will receive.
2. A quote is **valid for about 15 seconds**. If it expired or the market moved too far you are told "Quote expired or rate moved": refresh the quote and confirm again.
3. Your rate is the mid price less a **spread**, and a **fee** (a percentage, taken in the currency sold or bought depending on the pair) is charged. Both are already in the amount the quote says you receive; nothing else is taken.

Swaps complete at once; you find them in your [bills](/bill).$md$),
('bills-fees', 10, '账单与导出', 'Bills and statement export',
$md$[账单](/bill)列出账户的每一笔资金变动：充值、提现（冻结、完成或退回）、转入转出、闪兑和调账，最新的在前。

- 可以按币种、类型和时间筛选；点开任意一条可查看详情（如闪兑的汇率和手续费、转账的对方和备注）。
- 点击**导出**可下载当前筛选条件下的账单 **CSV 文件**（UTF-8 编码，可直接用 Excel 打开），包含每笔闪兑的汇率和手续费。$md$,
$md$[Bills](/bill) lists every movement of your money: deposits, withdrawals (held, paid or returned), transfers in and out, swaps and adjustments, newest first.

- Filter by currency, type and time; open any line for its details (a swap's rate and fee, a transfer's counterparty and memo).
- **Export** downloads the statement for the current filters as a **CSV file** (UTF-8, opens in Excel), with the rate and fee of each swap.$md$),
('bills-fees', 20, '费用说明', 'Fees',
$md$| 业务 | 费用 |
| --- | --- |
| 充值 | Coffer 不收费（链上矿工费由转出方支付） |
| 站内转账 | 免费 |
| 闪兑 | 点差 + 按比例的手续费，已包含在报价中 |
| 提现 | 每个网络固定的提现手续费，提交前在[提现](/withdraw)页面显示 |

所有费用都会在您确认之前显示，并记入[账单](/bill)。$md$,
$md$| What | Fee |
| --- | --- |
| Deposit | none from Coffer (the sender pays the network's gas) |
| Transfer to a Coffer user | free |
| Swap | spread plus a percentage fee, both included in the quote |
| Withdrawal | a fixed fee per network, shown on [Withdraw](/withdraw) before you confirm |

Every fee is shown before you confirm and appears in your [bills](/bill).$md$)
) AS a(topic_key, sort_order, title_zh, title_en, body_zh, body_en)
JOIN help_topics t ON t.key = a.topic_key;
