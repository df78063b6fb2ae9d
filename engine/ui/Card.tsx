import type { ReactNode } from 'react';

export function Card({
  children,
  className,
  as: Tag = 'article',
  labelledBy,
}: {
  children: ReactNode;
  className?: string;
  as?: 'article' | 'section' | 'div' | 'li';
  labelledBy?: string;
}) {
  return (
    <Tag className={`card${className ? ` ${className}` : ''}`} aria-labelledby={labelledBy}>
      {children}
    </Tag>
  );
}
