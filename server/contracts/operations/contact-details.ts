import { paging } from '../common.js';
import {
  addEmailBody,
  addPhoneBody,
  changeEmailBody,
  changePhoneBody,
  contactFieldParams,
  contactTagBody,
  contactTagParams,
  customValueBody,
  emailIdParams,
  phoneIdParams,
  replaceEmailsBody,
  replacePhonesBody,
} from '../contact-details.js';
import { contactIdParam } from '../contacts.js';
import { type Operation, operations } from './operation.js';
import { contactFieldValueItem, contactTagItem, emailItem, phoneItem } from './records.js';

/** The five operations each of a contact's e-mails and phones has: list, add, replace all, get, change, delete. */
function points(
  kind: { many: string; one: string; tag: string },
  schemas: Pick<Operation, 'params'> & {
    item: typeof emailItem | typeof phoneItem;
    add: Operation['body'];
    replace: Operation['body'];
    change: Operation['body'];
  },
  addStatus: number,
): Operation[] {
  const { many, one, tag } = kind;
  const list = `/contacts/:contact_id/${many}`;
  const single = `${list}/:${one}_id`;
  const item = schemas.item;
  return [
    {
      method: 'get',
      route: list,
      tag,
      summary: `A contact's ${many}`,
      params: contactIdParam,
      query: paging,
      answer: { status: 200, list: many, item },
    },
    {
      method: 'post',
      route: list,
      tag,
      summary: `Add a ${one}`,
      params: contactIdParam,
      body: schemas.add,
      answer: { status: addStatus, record: one, item },
    },
    {
      method: 'put',
      route: list,
      tag,
      summary: `Replace all ${many}`,
      params: contactIdParam,
      body: schemas.replace,
      answer: { status: 202, list: many, item },
    },
    { method: 'get', route: single, tag, summary: `Get a ${one}`, params: schemas.params, answer: { status: 200, record: one, item } },
    {
      method: 'put',
      route: single,
      tag,
      summary: `Change a ${one}`,
      params: schemas.params,
      body: schemas.change,
      answer: { status: 202, record: one, item },
    },
    { method: 'delete', route: single, tag, summary: `Delete a ${one}`, params: schemas.params, answer: { status: 204 } },
  ];
}

const tags = 'Contact tags';
const fields = 'Contact custom fields';
const fieldRoute = '/contacts/:contact_id/customfields/:custom_field_id';
const value = { status: 200, list: 'customfields', item: contactFieldValueItem } as const;

export const contactDetailOperations = operations([
  ...points(
    { many: 'emails', one: 'email', tag: 'Contact e-mails' },
    { params: emailIdParams, item: emailItem, add: addEmailBody, replace: replaceEmailsBody, change: changeEmailBody },
    202,
  ),
  ...points(
    { many: 'phones', one: 'phone', tag: 'Contact phones' },
    { params: phoneIdParams, item: phoneItem, add: addPhoneBody, replace: replacePhonesBody, change: changePhoneBody },
    200,
  ),
  {
    method: 'get',
    route: '/contacts/:contact_id/tags',
    tag: tags,
    summary: "A contact's tags",
    params: contactIdParam,
    query: paging,
    answer: { status: 200, list: 'tags', item: contactTagItem },
  },
  {
    method: 'post',
    route: '/contacts/:contact_id/tags',
    tag: tags,
    summary: 'Tag a contact',
    description: 'Creates the tag in the catalogue when it is new.',
    params: contactIdParam,
    body: contactTagBody,
    answer: { status: 202, record: 'tag', item: contactTagItem },
  },
  {
    method: 'get',
    route: '/contacts/:contact_id/tags/:tag_id',
    tag: tags,
    summary: "Get one of a contact's tags",
    params: contactTagParams,
    answer: { status: 202, record: 'tag', item: contactTagItem },
  },
  {
    method: 'put',
    route: '/contacts/:contact_id/tags/:tag_id',
    tag: tags,
    summary: "Replace one of a contact's tags",
    params: contactTagParams,
    body: contactTagBody,
    answer: { status: 202, record: 'tag', item: contactTagItem },
  },
  {
    method: 'delete',
    route: '/contacts/:contact_id/tags/:tag_id',
    tag: tags,
    summary: 'Untag a contact',
    params: contactTagParams,
    answer: { status: 204 },
  },
  {
    method: 'get',
    route: '/contacts/:contact_id/customfields',
    tag: fields,
    summary: "A contact's custom-field values",
    params: contactIdParam,
    query: paging,
    answer: value,
  },
  {
    method: 'get',
    route: fieldRoute,
    tag: fields,
    summary: "Get a contact's value of one custom field",
    params: contactFieldParams,
    answer: value,
  },
  {
    method: 'post',
    route: fieldRoute,
    tag: fields,
    summary: "Set a contact's value of a custom field",
    params: contactFieldParams,
    body: customValueBody,
    answer: value,
  },
  {
    method: 'put',
    route: fieldRoute,
    tag: fields,
    summary: "Set a contact's value of a custom field (as POST)",
    params: contactFieldParams,
    body: customValueBody,
    answer: value,
  },
  {
    method: 'delete',
    route: fieldRoute,
    tag: fields,
    summary: "Remove a contact's value of a custom field",
    params: contactFieldParams,
    answer: { status: 204 },
  },
]);
