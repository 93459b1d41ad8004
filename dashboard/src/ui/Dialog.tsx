import { Modal, type ModalRootProps } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';

/**
 * A modal with a title and a labelled close button. Its header is not a landmark (Mantine draws it
 * as <header>, which axe counts as a second banner beside the shell's).
 */
export function Dialog({
  title,
  onClose,
  size,
  children,
}: {
  title: string;
  onClose: () => void;
  size?: ModalRootProps['size'];
  children: ReactNode;
}) {
  // The screens mount a Dialog to open it and unmount it to close it, so Mantine never sees it close
  // and cannot hand the focus back: the element focused when it opened (its button) gets it back.
  const [opener] = useState(() => document.activeElement);
  useEffect(
    () => () => {
      if (opener instanceof HTMLElement) opener.focus();
    },
    [opener],
  );
  return (
    <Modal.Root opened onClose={onClose} size={size}>
      <Modal.Overlay />
      <Modal.Content>
        <Modal.Header role="none">
          <Modal.Title>{title}</Modal.Title>
          <Modal.CloseButton aria-label="Close" />
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
