import type { ImportColumnRecord, ImportField, ImportPhoneType } from '../../contracts/imports.js';

/* Suggestions of a field for a column, from its header: the header's letters and digits only, lower case, against synonyms. */

type Suggestion = NonNullable<ImportColumnRecord['suggestion']>;

const key = (header: string) =>
  header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const phone = (phone_type: ImportPhoneType): Suggestion => ({ field: 'phone', phone_type });
const field = (f: ImportField): Suggestion => ({ field: f });

const SYNONYMS: [string[], Suggestion][] = [
  [['firstname', 'first', 'givenname', 'forename', 'prenom', 'vorname', 'nombre'], field('first_name')],
  [['lastname', 'last', 'surname', 'familyname', 'nom', 'nachname', 'apellido'], field('last_name')],
  [['name', 'fullname', 'contactname', 'contact', 'displayname'], field('full_name')],
  [
    [
      'email',
      'emailaddress',
      'mail',
      'email1',
      'email2',
      'email3',
      'emailaddress1',
      'workemail',
      'personalemail',
      'primaryemail',
      'otheremails',
      'courriel',
    ],
    field('email'),
  ],
  [['mobile', 'mobilephone', 'cell', 'cellphone', 'cellular', 'mobilenumber', 'handy', 'portable'], phone('mobile')],
  [['workphone', 'businessphone', 'office', 'officephone', 'work', 'directline'], phone('work')],
  [['homephone', 'home', 'privatephone'], phone('home')],
  [
    [
      'phone',
      'phonenumber',
      'telephone',
      'tel',
      'phone1',
      'phone2',
      'phone3',
      'otherphones',
      'number',
      'primaryphone',
      'telefon',
      'telefono',
    ],
    phone('other'),
  ],
  [['address', 'street', 'streetaddress', 'address1', 'addressline1', 'mailingstreet', 'adresse'], field('address.street')],
  [['city', 'town', 'mailingcity', 'ville', 'stadt', 'ciudad'], field('address.city')],
  [['state', 'province', 'region', 'stateprovince', 'county', 'mailingstate'], field('address.state')],
  [['zip', 'zipcode', 'postalcode', 'postcode', 'zippostalcode', 'postal', 'plz', 'mailingzip', 'mailingpostalcode'], field('address.zip')],
  [['country', 'mailingcountry', 'pays', 'land', 'pais'], field('address.country')],
  [['folder', 'list', 'category', 'group'], field('folder')],
  [['tags', 'tag', 'labels', 'label'], field('tags')],
  [['notes', 'note', 'comments', 'comment', 'description', 'remarks'], field('notes')],
  [['donotcall', 'dnc', 'nocall', 'donotphone', 'optout'], field('do_not_call')],
];

const BY_KEY = new Map(SYNONYMS.flatMap(([keys, s]) => keys.map((k) => [k, s] as const)));

/** A custom field of the team, for suggestions by its own name (and "Company" for one named "Company name"). */
export type NamedField = { id: number; display_name: string };

export function suggestField(header: string, customFields: readonly NamedField[]): Suggestion | null {
  const k = key(header);
  if (!k) return null;
  const custom =
    customFields.find((f) => key(f.display_name) === k) ?? customFields.find((f) => key(f.display_name) === k.replace(/name$/, ''));
  if (custom) return { field: `custom:${custom.id}` };
  return BY_KEY.get(k) ?? null;
}
