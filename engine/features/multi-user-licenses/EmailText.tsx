/** An e-mail address that may wrap only before its @ (no breaks inside the name or the domain at 360 px). */
export function EmailText({ email, className = 'license-email' }: { email: string; className?: string }) {
  const at = email.lastIndexOf('@');
  return (
    <span className={className}>
      {at > 0 ? (
        <>
          {email.slice(0, at)}
          <wbr />
          {email.slice(at)}
        </>
      ) : (
        email
      )}
    </span>
  );
}
