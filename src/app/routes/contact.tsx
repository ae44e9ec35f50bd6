import { useParams } from 'react-router';
import { ContactPage } from '../../features/contact-page/contact-page';
import { NotFoundRoute } from './not-found';

export function ContactRoute() {
  const { id } = useParams();
  if (!id || !/^[1-9]\d{0,17}$/.test(id)) return <NotFoundRoute />;
  /* Another contact is another page: no state (drafts, open dialogs) carries over. */
  return <ContactPage key={id} id={id} />;
}
