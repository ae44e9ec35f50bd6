/* The carrier a server runs (CARRIER), kept apart from the interface so that carriers depend on it, not it on them. */
import type { Carrier, CarrierName, CarrierOptions } from './carrier.js';
import { createSimulatedCarrier } from './simulated-carrier.js';

export function createCarrier(name: CarrierName, options: CarrierOptions): Carrier {
  switch (name) {
    case 'simulated':
      return createSimulatedCarrier(options);
  }
}
