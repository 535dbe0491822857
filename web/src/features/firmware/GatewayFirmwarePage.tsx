import { FirmwarePage } from './FirmwarePage';

/** firmware/gate: gateway software. */
export default function GatewayFirmwarePage() {
  return <FirmwarePage target="gateway" />;
}
