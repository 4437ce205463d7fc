import { Outlet, useLocation, useNavigate } from 'react-router';
import { AppFrame } from './app-frame';

/** The root route's element: the frame (app-frame.tsx) with the router's location and outlet. */
export function AppLayout() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <AppFrame
      pathname={location.pathname}
      search={location.search}
      navigate={(to, options) => (typeof to === 'number' ? navigate(to) : navigate(to, options))}
    >
      <Outlet />
    </AppFrame>
  );
}
