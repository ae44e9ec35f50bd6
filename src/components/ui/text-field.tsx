export { TextField, TextareaField, type TextFieldProps, type TextareaFieldProps } from './field';
