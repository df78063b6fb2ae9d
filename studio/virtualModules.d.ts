/** The tabs' compiled form checks (studio/buildStudio.ts formValidatorsPlugin). */
declare module 'virtual:studio-form-validators' {
  const validators: Record<string, Record<string, unknown>>;
  export default validators;
}
