import { useParams } from 'react-router';
import { DialerScreen } from '../../features/dialer/dialer-screen';
import { NotFoundRoute } from './not-found';

export function DialerRoute() {
  const { id } = useParams();
  if (!id || !/^[1-9]\d{0,17}$/.test(id)) return <NotFoundRoute />;
  /* A new session is a new screen: nothing of the previous one's state carries over. */
  return <DialerScreen key={id} id={id} />;
}
