"""What the checks know of schema.org as Google reads it (scripts/check-export-html.py, scripts/check-site.py)."""

# The applicationCategory values Google's software-app documentation lists.
GOOGLE = {"GameApplication", "SocialNetworkingApplication", "TravelApplication", "ShoppingApplication",
          "SportsApplication", "LifestyleApplication", "BusinessApplication", "DesignApplication",
          "DeveloperApplication", "DriverApplication", "EducationalApplication", "HealthApplication",
          "FinanceApplication", "SecurityApplication", "BrowserApplication", "CommunicationApplication",
          "DesktopEnhancementApplication", "EntertainmentApplication", "MultimediaApplication", "HomeApplication",
          "UtilitiesApplication", "ReferenceApplication"}
