import { FirmwarePage } from './FirmwarePage';

/** firmware/inv: inverter firmware beside the inverter-type tree. */
export default function InverterFirmwarePage() {
  return <FirmwarePage target="inverter" />;
}
