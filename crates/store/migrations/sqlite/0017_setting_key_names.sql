-- Two settings took the names third-party clients read and write back: `maxSellPower` is now
-- `pvMaxLimit` and `genStartCap` is now `generatorStartCap`. Values devices confirmed and
-- values saved in custom profiles move to the new names, so nothing a user saved is lost.
UPDATE device_settings SET key = 'pvMaxLimit'
WHERE key = 'maxSellPower'
  AND NOT EXISTS (SELECT 1 FROM device_settings n WHERE n.device_sn = device_settings.device_sn AND n.key = 'pvMaxLimit');
UPDATE device_settings SET key = 'generatorStartCap'
WHERE key = 'genStartCap'
  AND NOT EXISTS (SELECT 1 FROM device_settings n WHERE n.device_sn = device_settings.device_sn AND n.key = 'generatorStartCap');
DELETE FROM device_settings WHERE key IN ('maxSellPower', 'genStartCap');
UPDATE setting_profiles
SET params = REPLACE(REPLACE(params, '"maxSellPower":', '"pvMaxLimit":'), '"genStartCap":', '"generatorStartCap":')
WHERE params LIKE '%"maxSellPower":%' OR params LIKE '%"genStartCap":%';
