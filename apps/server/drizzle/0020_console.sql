-- Reserved slot; filled by its feature. A migration must hold at least one statement.
SELECT 1;
