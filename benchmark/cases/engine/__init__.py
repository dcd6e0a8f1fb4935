"""The data engine: writes verified cases with the Data Engine Toolset (paper section 3.2, figure 10)."""
