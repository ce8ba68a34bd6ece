-- 0003_phone_numbers: placeholder, filled in by its owner.
SELECT 1;
