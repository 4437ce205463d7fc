import { App, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useCurrentUser } from '../features/auth/api/current-user';
import { endSession } from '../features/auth/session';
import { setSignedOutHandler } from '../lib/api';
import { tokenStore } from '../lib/session';

/**
 * Pages open only for a signed-in operator. A token whose user is not an operator (or a
 * 403 from any call) ends the session here with "no permission"; the API checks the role
 * on every call anyway, this only keeps the pages honest.
 */
export function RequireOperator() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useCurrentUser();
  const notOperator = me.data !== undefined && me.data.role !== 'operator';

  useEffect(() => {
    setSignedOutHandler((reason) => {
      if (reason === 'forbidden') message.error(t('auth.noPermission'));
      void endSession().then(() => {
        queryClient.clear();
        navigate('/login', { replace: true });
      });
    });
  }, [message, navigate, queryClient, t]);

  useEffect(() => {
    if (!notOperator) return;
    message.error(t('auth.noPermission'));
    void endSession().then(() => {
      queryClient.clear();
      navigate('/login', { replace: true });
    });
  }, [notOperator, message, navigate, queryClient, t]);

  if (!tokenStore.get() || me.isError) return <Navigate to="/login" replace />;
  if (!me.data || notOperator) return <Spin fullscreen />;
  return <Outlet />;
}
