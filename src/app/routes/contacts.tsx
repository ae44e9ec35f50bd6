import { ContactsScreen } from '../../features/contacts/contacts-screen';

export function ContactsRoute() {
  return <ContactsScreen />;
}
