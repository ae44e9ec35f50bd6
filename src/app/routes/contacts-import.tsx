import { useParams } from 'react-router';
import { ImportScreen } from '../../features/imports/import-screen';
import { ImportStartScreen } from '../../features/imports/import-start-screen';
import { NotFoundRoute } from './not-found';

export function ContactsImportRoute() {
  return <ImportStartScreen />;
}

export function ContactsImportOneRoute() {
  const { id } = useParams();
  if (!id || !/^[\w-]{1,64}$/.test(id)) return <NotFoundRoute />;
  return <ImportScreen key={id} id={id} />;
}
