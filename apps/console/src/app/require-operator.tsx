import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Result, Spin } from 'antd';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useNavigate } from 'react-router';
import { useCurrentUser } from '../features/auth/api/current-user';
import { useOperatorSession } from '../features/auth/api/operator-session';
import { queryKeys } from '../lib/query-keys';
import { endSession } from '../features/auth/session';
import { setSignedOutHandler } from '../lib/api';
import { signedOutReason, tokenStore } from '../lib/session';

/** How often the idle watch looks at the time since the operator last did something. */
const IDLE_CHECK_MS = 10_000;
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Signs out after `minutes` without the operator touching the console (the server ends an idle
 * operator session too; decision 045).
 */
function useIdleSignOut(minutes: number | undefined, onIdle: () => void) {
  const last = useRef(Date.now());
  useEffect(() => {
    if (!minutes) return;
    last.current = Date.now();
    const touch = () => {
      last.current = Date.now();
    };
    for (const e of ACTIVITY_EVENTS) window.addEventListener(e, touch, { passive: true });
    const timer = window.setInterval(() => {
      if (Date.now() - last.current >= minutes * 60_000) onIdle();
    }, IDLE_CHECK_MS);
    return () => {
      for (const e of ACTIVITY_EVENTS) window.removeEventListener(e, touch);
      window.clearInterval(timer);
    };
  }, [minutes, onIdle]);
}

/**
 * Pages open only for a signed-in operator whose session passed a second factor. A token whose
 * user is not an operator ends the session here with "no permission"; an operator without a
 * second factor (or whose session did not pass it) sees what to do instead of the pages. The API
 * checks all of it on every call anyway; this keeps the pages honest.
 */
export function RequireOperator() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const notOperator = me.data !== undefined && me.data.role !== 'operator';
  const session = useOperatorSession(me.data?.role === 'operator');

  const signOut = useCallback(
    (reason?: string) => {
      if (reason) signedOutReason.set(reason);
      void endSession().then(() => {
        queryClient.clear();
        navigate('/login', { replace: true });
      });
    },
    [navigate, queryClient],
  );

  useEffect(() => {
    setSignedOutHandler((reason, text) => {
      if (reason === 'second-factor') void queryClient.invalidateQueries({ queryKey: queryKeys.operatorSession });
      else signOut(text);
    });
    // Signed out (or gone to the sign-in page): later answers have no shell to send anywhere.
    return () => setSignedOutHandler(() => {});
  }, [queryClient, signOut]);

  useEffect(() => {
    if (!notOperator) return;
    message.error(t('auth.noPermission'));
    signOut();
  }, [notOperator, message, signOut, t]);

  const idleMinutes = session.data?.idleMinutes;
  const onIdle = useCallback(() => signOut(t('auth.idleSignedOut', { minutes: idleMinutes })), [signOut, t, idleMinutes]);
  useIdleSignOut(idleMinutes, onIdle);

  if (!tokenStore.get() || me.isError || session.isError) return <Navigate to="/login" replace />;
  if (!me.data || notOperator || !session.data) return <Spin fullscreen />;
  if (!session.data.secondFactorEnrolled || !session.data.sessionVerified) {
    const enrol = !session.data.secondFactorEnrolled;
    return (
      <Result
        status="warning"
        title={t(enrol ? 'auth.enrolTitle' : 'auth.verifyTitle')}
        subTitle={t(enrol ? 'auth.enrolBody' : 'auth.verifyBody')}
        extra={[
          enrol && (
            <Button key="wallet" type="primary" href="/settings/security">
              {t('auth.openSecurityCentre')}
            </Button>
          ),
          <Button key="out" onClick={() => signOut()}>
            {t(enrol ? 'auth.leave' : 'auth.signInAgain')}
          </Button>,
        ]}
      />
    );
  }
  return <Outlet />;
}
