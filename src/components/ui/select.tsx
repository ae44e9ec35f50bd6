export { SelectField, InlineSelect, type SelectFieldProps, type SelectOption } from './field';
