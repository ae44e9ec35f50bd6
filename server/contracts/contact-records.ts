/** Response shapes of /rest/1/contacts as clients read them (types only; browser-safe). */

export type Flag = '0' | '1';

export type ContactPhoneRecord = {
  id: number;
  type: number;
  type_name: string;
  phone_number: string;
  phone: string;
  label: string;
  is_primary: boolean;
};

export type ContactEmailRecord = { id: number; email_address: string; is_primary: boolean };

export type ContactTagRecord = { id: number; title: string };

export type ContactCustomFieldRecord = {
  custom_field_id: string;
  name: string;
  type: string;
  value: string | null;
};

export type ContactRecord = {
  contact_user_id: string;
  user_id: string;
  owner_id: string;
  /** The owning member's id again, under the names BI exports read (compat-notes). */
  member_id: string;
  contact_owner_id: string;
  first_name: string;
  last_name: string;
  date_added: string;
  date_modified: string;
  original_ip: string;
  unique_id: string;
  ad_code: string;
  language: string;
  region: string;
  time_zone: string;
  location_name: string;
  latitude: string;
  longitude: string;
  raw_zip: string;
  raw_phone: string;
  last_login: string;
  total_logins: string;
  points: string;
  do_not_call: Flag;
  call_result: string | null;
  gender: string;
  date_of_birth: string;
  category_id: string;
  category: { category_id: string; name: string; description: string };
  site_id: string;
  archived: Flag;
  trashed: Flag;
  removed: Flag;
  viewed: Flag;
  rating: string;
  contacted: string;
  consent_date: string;
  lead_id: string;
  total_calls: string;
  last_call_time: string;
  notes: { notes: string };
  primary_email: {
    email_address: string;
    status: string;
    soft_bounce_count: string;
    hard_bounce_count: string;
    is_primary: string;
    double_opt_status: string;
    double_opt_ip: string;
    type: string;
  };
  primary_phone: { phone: string; raw_phone: string; type: string; is_primary: string; label: string };
  phones: ContactPhoneRecord[] | null;
  emails: ContactEmailRecord[];
  primary_address: {
    address: string;
    address_2: string;
    city: string;
    state: string;
    state_other: string;
    zip: string;
    country: string;
    type: string;
    is_primary: string;
  };
  additional_names: { first_name: string; last_name: string }[];
  questions: { question: string; answer: string }[];
  social_accounts: { type: string; account: string }[];
  tags: ContactTagRecord[];
  custom_fields: ContactCustomFieldRecord[];
  external_crm_data: { crm_id: string; crm_name: string }[];
};

/** POST /rest/1/contacts answers this single object (not an array). */
export type CreatedContactRecord = {
  contact_user_id: string;
  /** The owning member (compat-notes: BI exports read both on every contact record). */
  member_id: string;
  contact_owner_id: string;
  first_name: string;
  last_name: string;
  email_address: string;
  phone: string;
  phone_label: string;
  date_added: string;
  notes: string | null;
  /** Extension: what happened: a new contact, or an existing duplicate updated or left alone. */
  duplicate_action: 'created' | 'updated' | 'skipped';
};

export type ContactActivityRecord = { user_activity_id: string; activity_id: string; activity: string; date: string };

export type AuditRecord = {
  contact_id: string;
  member_id: string;
  action: string;
  data_type: string;
  old: string;
  new: string;
  date_added: string;
};
