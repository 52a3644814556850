-- A webhook carries a private leave type's name, comment and notes only when an admin opted it in.
ALTER TABLE webhooks ADD COLUMN private_details BIGINT NOT NULL DEFAULT 0 CHECK (private_details IN (0, 1));

-- What a deactivation or the loss of the approver role now ends, ended for those already past it.
DELETE FROM delegations
WHERE approver_id NOT IN (SELECT employee_id FROM team_approvers)
   OR approver_id IN (SELECT id FROM employees WHERE is_active = 0)
   OR substitute_id IN (SELECT id FROM employees WHERE is_active = 0);
DELETE FROM calendar_feeds WHERE employee_id IN (SELECT id FROM employees WHERE is_active = 0);
