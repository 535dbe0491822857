import { Col, Row } from 'antd';
import { Exchange } from './Exchange';
import { RtuForm } from './RtuForm';
import { SendPanel } from './SendPanel';
import { useRtuRequest } from './useRtuRequest';
import { useSendFrame } from './useSendFrame';

/** The Modbus RTU tab: build a request, send it to a device, see the reply decoded. */
export function RtuTab() {
  const request = useRtuRequest();
  const sender = useSendFrame();
  return (
    <Row gutter={[24, 24]}>
      <Col xs={24} lg={10}>
        <RtuForm request={request} />
      </Col>
      <Col xs={24} lg={14}>
        <SendPanel sender={sender} frame={request.built.frame} />
        {sender.entry && (
          <Exchange
            entry={sender.entry}
            startAddress={request.isRead ? request.address : undefined}
          />
        )}
      </Col>
    </Row>
  );
}
