import useMessage from 'antd/es/message/useMessage';
import useModal from 'antd/es/modal/useModal';
import useNotification from 'antd/es/notification/useNotification';
import { useEffect } from 'react';
import { setRealApi } from './api';

/**
 * antd App's holders (the same order: dialogs, messages, notifications), in a chunk of their
 * own: rendered when the app first asks for a toast or a dialog (DeferredApp).
 */
export default function Holders() {
  const [message, messageHolder] = useMessage();
  const [notification, notificationHolder] = useNotification();
  const [modal, modalHolder] = useModal();
  // after the holders mounted: antd's API ignores calls before that
  useEffect(() => setRealApi({ message, notification, modal }), [message, notification, modal]);
  return (
    <>
      {modalHolder}
      {messageHolder}
      {notificationHolder}
    </>
  );
}
