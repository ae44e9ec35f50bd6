import type { ContactRecord } from '../../contracts/contact-records.js';
import { PHONE_TYPES } from '../../contracts/contacts.js';
import { dateOrZero, timestampOrZero } from '../../lib/time.js';
import type { ContactDetails, RecordRow } from './contact-records.repository.js';

const flag = (v: number | boolean) => (v ? '1' : '0') as '0' | '1';

/** (555) 010-0199 for ten-digit North American numbers, +digits otherwise. */
export function formatPhone(digits: string): string {
  if (/^\d{10}$/.test(digits)) return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
  return digits ? `+${digits}` : '';
}

const byContact = <T extends { contact_id: number }>(rows: T[]) => {
  const map = new Map<number, T[]>();
  for (const row of rows) {
    const list = map.get(row.contact_id);
    if (list) list.push(row);
    else map.set(row.contact_id, [row]);
  }
  return map;
};

/** Groups the batch-loaded details once, then builds each record in the contract's shape. */
export function contactRecords(contacts: RecordRow[], details: ContactDetails): ContactRecord[] {
  const phones = byContact(details.phones);
  const emails = byContact(details.emails);
  const addresses = byContact(details.addresses);
  const tags = byContact(details.tags);
  const custom = byContact(details.customValues);
  const notes = byContact(details.notes);
  const names = byContact(details.names);
  const answers = byContact(details.answers);
  const social = byContact(details.social);
  const crm = byContact(details.crm);
  const folders = new Map(details.folders.map((f) => [f.id, f]));

  return contacts.map((c) => {
    const contactPhones = phones.get(c.id) ?? [];
    const primaryPhone = contactPhones.find((p) => p.is_primary);
    const contactEmails = emails.get(c.id) ?? [];
    const primaryEmail = contactEmails.find((e) => e.is_primary);
    const address = (addresses.get(c.id) ?? [])[0];
    const folder = c.folder_id === null ? undefined : folders.get(c.folder_id);
    return {
      contact_user_id: String(c.id),
      user_id: String(c.id),
      owner_id: String(c.owner_id),
      member_id: String(c.owner_id),
      contact_owner_id: String(c.owner_id),
      first_name: c.first_name,
      last_name: c.last_name,
      date_added: timestampOrZero(c.created_at),
      date_modified: timestampOrZero(c.updated_at),
      original_ip: c.original_ip,
      unique_id: c.unique_id,
      ad_code: c.ad_code,
      language: c.language,
      region: c.region,
      time_zone: c.time_zone,
      location_name: c.location_name,
      latitude: c.latitude,
      longitude: c.longitude,
      raw_zip: c.raw_zip,
      raw_phone: c.raw_phone,
      last_login: timestampOrZero(c.last_login),
      total_logins: String(c.total_logins),
      points: String(c.points),
      do_not_call: flag(c.do_not_call),
      call_result: c.call_result,
      gender: c.gender,
      date_of_birth: dateOrZero(c.date_of_birth),
      category_id: String(c.folder_id ?? 0),
      category: { category_id: String(c.folder_id ?? 0), name: folder?.name ?? '', description: folder?.description ?? '' },
      site_id: c.site_id,
      archived: flag(c.archived),
      trashed: flag(c.trashed),
      removed: flag(c.removed),
      viewed: flag(c.viewed),
      rating: String(c.rating),
      contacted: timestampOrZero(c.contacted_at),
      consent_date: dateOrZero(c.consent_date),
      lead_id: c.lead_id,
      total_calls: String(c.total_calls),
      last_call_time: timestampOrZero(c.last_call_time),
      notes: {
        notes: (notes.get(c.id) ?? [])
          .map((n) => `${n.created_at} - ${`${n.first_name ?? ''} ${n.last_name ?? ''}`.trim() || n.username || 'API'}: ${n.body}`)
          .join('\n\n'),
      },
      primary_email: {
        email_address: primaryEmail?.email_address ?? '',
        status: primaryEmail?.status ?? '',
        soft_bounce_count: '0',
        hard_bounce_count: '0',
        is_primary: flag(!!primaryEmail),
        double_opt_status: '',
        double_opt_ip: '',
        type: primaryEmail ? 'personal' : '',
      },
      primary_phone: {
        phone: formatPhone(primaryPhone?.phone_number ?? ''),
        raw_phone: primaryPhone?.phone_number ?? '',
        type: primaryPhone ? String(primaryPhone.type) : '',
        is_primary: flag(!!primaryPhone),
        label: primaryPhone?.label ?? '',
      },
      phones: contactPhones.length
        ? contactPhones.map((p) => ({
            id: p.id,
            type: p.type,
            type_name: PHONE_TYPES[p.type as keyof typeof PHONE_TYPES] ?? 'OTHER',
            phone_number: p.phone_number,
            phone: formatPhone(p.phone_number),
            label: p.label,
            is_primary: !!p.is_primary,
          }))
        : null,
      emails: contactEmails.map((e) => ({ id: e.id, email_address: e.email_address, is_primary: !!e.is_primary })),
      primary_address: {
        address: address?.address ?? '',
        address_2: address?.address_2 ?? '',
        city: address?.city ?? '',
        state: address?.state ?? '',
        state_other: address?.state_other ?? '',
        zip: address?.zip ?? '',
        country: address?.country ?? '',
        type: address?.type ?? '',
        is_primary: flag(!!address),
      },
      additional_names: (names.get(c.id) ?? []).map((n) => ({ first_name: n.first_name, last_name: n.last_name })),
      questions: (answers.get(c.id) ?? []).map((a) => ({ question: a.question, answer: a.answer })),
      social_accounts: (social.get(c.id) ?? []).map((s) => ({ type: String(s.type), account: s.account })),
      tags: (tags.get(c.id) ?? []).map((t) => ({ id: t.id, title: t.title })),
      custom_fields: (custom.get(c.id) ?? []).map((v) => ({
        custom_field_id: String(v.id),
        name: v.display_name,
        type: String(v.type_id),
        value: v.value,
      })),
      external_crm_data: (crm.get(c.id) ?? []).map((l) => ({ crm_id: l.crm_id, crm_name: l.crm_name })),
    };
  });
}
